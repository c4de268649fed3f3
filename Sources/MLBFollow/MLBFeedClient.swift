import AsyncHTTPClient
import Foundation
import Logging
import MLBFeed
import NIOCore
import NIOHTTP1

/// Why a request to the feed failed.
public struct MLBFetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: String, Sendable {
        /// The provider answered with a status other than 200.
        case status
        /// No complete answer before the deadline.
        case timeout
        /// Could not connect, or the connection closed early.
        case connection
        /// The answer was larger than the limit.
        case tooLarge = "too-large"
    }

    public var kind: Kind
    /// The HTTP status, for ``Kind/status``.
    public var status: Int?
    public var reason: String

    /// An answer after which asking for patches again is pointless: a client error other than 429
    /// (the timecode expired, say) or an answer too large.
    var abandonsPatches: Bool {
        switch kind {
        case .tooLarge: true
        case .status: (400..<500).contains(status ?? 0) && status != 429
        default: false
        }
    }

    public init(_ kind: Kind, status: Int? = nil, _ reason: String) {
        self.kind = kind
        self.status = status
        self.reason = reason
    }

    public var description: String {
        switch kind {
        case .status: "HTTP \(status ?? 0): \(reason)"
        default: "\(kind.rawValue): \(reason)"
        }
    }
}

/// The two GUMBO endpoints of a game: the whole document and the patches since a timecode.
public struct MLBFeedClient: Sendable {
    /// The provider, e.g. `https://statsapi.mlb.com` (no trailing slash needed).
    public let baseURL: String
    /// The time one request may take.
    public let requestTimeout: Duration
    /// The largest answer accepted.
    public let maximumBytes: Int
    private let httpClient: HTTPClient

    /// Creates a client; the caller owns `httpClient` and shuts it down.
    public init(
        baseURL: String, httpClient: HTTPClient, requestTimeout: Duration = .seconds(15),
        maximumBytes: Int = 32 * 1024 * 1024
    ) {
        var url = baseURL
        while url.hasSuffix("/") { url.removeLast() }
        self.baseURL = url
        self.httpClient = httpClient
        self.requestTimeout = requestTimeout
        self.maximumBytes = maximumBytes
    }

    /// `GET /api/v1.1/game/{gamePk}/feed/live`.
    public func liveURL(gamePk: Int) -> String { "\(baseURL)/api/v1.1/game/\(gamePk)/feed/live" }

    /// `GET /api/v1.1/game/{gamePk}/feed/live/diffPatch?startTimecode=…`.
    public func diffPatchURL(gamePk: Int, since timecode: MLBTimecode) -> String {
        "\(liveURL(gamePk: gamePk))/diffPatch?startTimecode=\(timecode.text)"
    }

    /// The whole live feed document.
    /// - Throws: ``MLBFetchError``.
    public func live(gamePk: Int, logger: Logger) async throws(MLBFetchError) -> Data {
        try await get(liveURL(gamePk: gamePk), logger: logger)
    }

    /// The patches since `timecode` (`[{"diff": [...]}, …]`), or a whole document.
    /// - Throws: ``MLBFetchError``.
    public func diffPatch(gamePk: Int, since timecode: MLBTimecode, logger: Logger) async throws(MLBFetchError)
        -> Data
    {
        try await get(diffPatchURL(gamePk: gamePk, since: timecode), logger: logger)
    }

    private func get(_ url: String, logger: Logger) async throws(MLBFetchError) -> Data {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        request.headers.add(name: "accept", value: "application/json")
        request.headers.add(name: "user-agent", value: "ScoreFeed")
        let deadline = NIODeadline.now() + TimeAmount(requestTimeout)
        do {
            let response = try await httpClient.execute(request, deadline: deadline, logger: logger)
            let body = try await response.body.collect(upTo: maximumBytes)
            guard response.status == .ok else {
                let text = String(decoding: body.readableBytesView.prefix(200), as: UTF8.self)
                throw MLBFetchError(.status, status: Int(response.status.code), text)
            }
            return Data(body.readableBytesView)
        } catch let error as MLBFetchError {
            throw error
        } catch let error as HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .getConnectionFromPoolTimeout:
                throw MLBFetchError(.timeout, "no answer in \(requestTimeout) (\(error))")
            default:
                throw MLBFetchError(.connection, "\(error)")
            }
        } catch let error as NIOTooManyBytesError {
            throw MLBFetchError(.tooLarge, "answer larger than \(maximumBytes) bytes (\(error))")
        } catch {
            throw MLBFetchError(.connection, "\(type(of: error)): \(error)")
        }
    }
}
