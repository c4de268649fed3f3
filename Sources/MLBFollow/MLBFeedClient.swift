import AsyncHTTPClient
import Foundation
import LiveFollow
import Logging
import MLBFeed

extension FetchError {
    /// An answer after which asking for patches again is pointless: a client error other than 429
    /// (the timecode expired, say) or an answer too large.
    var abandonsPatches: Bool {
        switch kind {
        case .tooLarge: true
        case .status: (400..<500).contains(status ?? 0) && status != 429
        default: false
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
    private let documents: DocumentClient

    /// Creates a client; the caller owns `httpClient` and shuts it down.
    public init(
        baseURL: String, httpClient: HTTPClient, requestTimeout: Duration = .seconds(15),
        maximumBytes: Int = 32 * 1024 * 1024
    ) {
        var url = baseURL
        while url.hasSuffix("/") { url.removeLast() }
        self.baseURL = url
        self.requestTimeout = requestTimeout
        self.maximumBytes = maximumBytes
        self.documents = DocumentClient(
            httpClient: httpClient, requestTimeout: requestTimeout, maximumBytes: maximumBytes)
    }

    /// `GET /api/v1.1/game/{gamePk}/feed/live`.
    public func liveURL(gamePk: Int) -> String { "\(baseURL)/api/v1.1/game/\(gamePk)/feed/live" }

    /// `GET /api/v1.1/game/{gamePk}/feed/live/diffPatch?startTimecode=…`.
    public func diffPatchURL(gamePk: Int, since timecode: MLBTimecode) -> String {
        "\(liveURL(gamePk: gamePk))/diffPatch?startTimecode=\(timecode.text)"
    }

    /// The whole live feed document.
    /// - Throws: ``FetchError``.
    public func live(gamePk: Int, logger: Logger) async throws(FetchError) -> Data {
        try await get(liveURL(gamePk: gamePk), logger: logger)
    }

    /// The patches since `timecode` (`[{"diff": [...]}, …]`), or a whole document.
    /// - Throws: ``FetchError``.
    public func diffPatch(gamePk: Int, since timecode: MLBTimecode, logger: Logger) async throws(FetchError)
        -> Data
    {
        try await get(diffPatchURL(gamePk: gamePk, since: timecode), logger: logger)
    }

    private func get(_ url: String, logger: Logger) async throws(FetchError) -> Data {
        switch try await documents.get(url, logger: logger) {
        case .document(let data, _): return data
        case .notModified: throw FetchError(.status, status: 304, "not modified")
        }
    }
}
