import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Why a request to a provider failed.
public struct FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: String, Sendable {
        /// The provider answered with a status other than 200 (or 304 to a conditional request).
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

/// What a conditional request sends back: the validators of the last document received.
public struct Validators: Sendable, Equatable {
    /// The `ETag` answered, sent as `If-None-Match`.
    public var etag: String?
    /// The `Last-Modified` answered, sent as `If-Modified-Since`.
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// An answer to a GET: a document with its validators, or "not modified" (304).
public enum Fetched: Sendable, Equatable {
    case document(Data, Validators)
    case notModified
}

/// GETs of a provider's JSON documents (async-http-client), with a deadline, a size limit and
/// conditional requests; every failure is a ``FetchError``.
public struct DocumentClient: Sendable {
    /// The time one request may take.
    public let requestTimeout: Duration
    /// The largest answer accepted.
    public let maximumBytes: Int
    private let httpClient: HTTPClient

    /// Creates a client; the caller owns `httpClient` and shuts it down.
    public init(httpClient: HTTPClient, requestTimeout: Duration = .seconds(15), maximumBytes: Int = 32 * 1024 * 1024) {
        self.httpClient = httpClient
        self.requestTimeout = requestTimeout
        self.maximumBytes = maximumBytes
    }

    /// GET `url`; with `validators`, a conditional request that may answer ``Fetched/notModified``.
    /// - Parameter headers: more request headers (an API key, say: never logged here).
    /// - Throws: ``FetchError``.
    public func get(
        _ url: String, validators: Validators? = nil, headers: [(String, String)] = [], logger: Logger
    ) async throws(FetchError) -> Fetched {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        request.headers.add(name: "accept", value: "application/json")
        request.headers.add(name: "user-agent", value: "ScoreFeed")
        if let etag = validators?.etag { request.headers.add(name: "if-none-match", value: etag) }
        if let date = validators?.lastModified { request.headers.add(name: "if-modified-since", value: date) }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let deadline = NIODeadline.now() + TimeAmount(requestTimeout)
        do {
            let response = try await httpClient.execute(request, deadline: deadline, logger: logger)
            let body = try await response.body.collect(upTo: maximumBytes)
            if response.status == .notModified, validators != nil { return .notModified }
            guard response.status == .ok else {
                let text = String(decoding: body.readableBytesView.prefix(200), as: UTF8.self)
                throw FetchError(.status, status: Int(response.status.code), text)
            }
            let answered = Validators(
                etag: response.headers.first(name: "etag"), lastModified: response.headers.first(name: "last-modified"))
            return .document(Data(body.readableBytesView), answered)
        } catch let error as FetchError {
            throw error
        } catch let error as HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .getConnectionFromPoolTimeout:
                throw FetchError(.timeout, "no answer in \(requestTimeout) (\(error))")
            default:
                throw FetchError(.connection, "\(error)")
            }
        } catch let error as NIOTooManyBytesError {
            throw FetchError(.tooLarge, "answer larger than \(maximumBytes) bytes (\(error))")
        } catch {
            throw FetchError(.connection, "\(type(of: error)): \(error)")
        }
    }
}
