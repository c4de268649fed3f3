import Crypto
import Foundation
import Synchronization

/// Hands out the provider token (JWT) for every request, reusing one token as APNs asks.
///
/// - A token is reused for ``reuseInterval`` (50 minutes by default), then regenerated.
/// - It is never regenerated more often than every ``minimumRegenerationInterval`` (20 minutes),
///   except after ``tokenExpired(_:)`` (APNs answered `403 ExpiredProviderToken`).
/// - Time comes from the `clock` closure, so tests can move it.
///
/// Synchronous behind a lock rather than an actor: every request asks for the token, and a hop to an
/// actor per push cost more than the rest of the bookkeeping of a send.
public final class APNsTokenProvider: Sendable {
    private let signingKey: P256.Signing.PrivateKey
    private let keyId: String
    private let teamId: String
    private let clock: @Sendable () -> Date
    /// How long one token is used before a new one is made.
    public let reuseInterval: Duration
    /// The shortest time between two regenerations unless the token was reported expired.
    public let minimumRegenerationInterval: Duration

    private let state = Mutex(State())

    private struct State {
        var current: (token: String, issuedAt: Date)?
        var holdUntil: Date?
        var refreshRequested = false
        var generatedCount = 0
    }

    /// How many tokens have been signed so far.
    public var generatedCount: Int { state.withLock { $0.generatedCount } }

    /// Creates a provider.
    /// - Parameters:
    ///   - signingKey: The P-256 key of the `.p8` file.
    ///   - keyId: The key id (`kid`).
    ///   - teamId: The team id (`iss`).
    ///   - reuseInterval: How long to reuse a token (default 50 minutes; never less than
    ///     `minimumRegenerationInterval`).
    ///   - minimumRegenerationInterval: Minimum time between regenerations (default 20 minutes).
    ///   - clock: The current time.
    public init(
        signingKey: P256.Signing.PrivateKey,
        keyId: String,
        teamId: String,
        reuseInterval: Duration = .seconds(50 * 60),
        minimumRegenerationInterval: Duration = .seconds(20 * 60),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.signingKey = signingKey
        self.keyId = keyId
        self.teamId = teamId
        self.reuseInterval = max(reuseInterval, minimumRegenerationInterval)
        self.minimumRegenerationInterval = minimumRegenerationInterval
        self.clock = clock
    }

    /// Creates a provider for a configuration.
    /// - Parameters:
    ///   - configuration: Supplies the key, key id and team id.
    ///   - reuseInterval: How long to reuse a token (default 50 minutes).
    ///   - clock: The current time.
    public convenience init(
        configuration: APNsConfiguration,
        reuseInterval: Duration = .seconds(50 * 60),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(
            signingKey: configuration.signingKey,
            keyId: configuration.keyId,
            teamId: configuration.teamId,
            reuseInterval: reuseInterval,
            clock: clock
        )
    }

    /// The token to put into `authorization: bearer <token>`, regenerated when due.
    /// - Throws: ``APNsError`` with code `signingFailed`.
    public func token() throws(APNsError) -> String {
        let now = clock()
        return try state.withLock { (state: inout State) throws(APNsError) -> String in
            if let current = state.current, !shouldRegenerate(current.issuedAt, now: now, state) {
                return current.token
            }
            let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
            let token = try APNsJWT.make(keyId: keyId, teamId: teamId, issuedAt: issuedAt, signingKey: signingKey)
            state.current = (token, now)
            state.holdUntil = nil
            state.refreshRequested = false
            state.generatedCount += 1
            return token
        }
    }

    /// Reports that APNs rejected `token` as expired (`403 ExpiredProviderToken`): the next call to
    /// ``token()`` makes a new one, even within the minimum regeneration interval.
    ///
    /// Reports about an older token are ignored, so many concurrent rejections cause one regeneration.
    /// - Parameter token: The token the rejected request carried.
    public func tokenExpired(_ token: String) {
        state.withLock { state in
            if state.current?.token == token { state.refreshRequested = true }
        }
    }

    /// Reacts to `429 TooManyProviderTokenUpdates`: keeps the current token for at least another
    /// minimum regeneration interval from now (unless it is later reported expired).
    public func keepCurrentToken() {
        let until = clock().addingTimeInterval(minimumRegenerationInterval / .seconds(1))
        state.withLock { $0.holdUntil = until }
    }

    private func shouldRegenerate(_ issuedAt: Date, now: Date, _ state: State) -> Bool {
        if state.refreshRequested { return true }
        if let holdUntil = state.holdUntil, now < holdUntil { return false }
        // `reuseInterval` is never below the minimum regeneration interval (see `init`).
        return now.timeIntervalSince(issuedAt) >= reuseInterval / .seconds(1)
    }
}
