import Foundation
import HTTPTypes
import Hummingbird
import PostgresClient
import ScoreDomain
import ScoreStore
import Tracing

/// `POST /v1/feed`: a scoring provider posts canonical messages.
///
/// Order of the checks: credentials present (401), bearer key known (403), content type (415),
/// body size (413), signature (403), every message valid (400, naming each bad one), the fold
/// accepts them all (409); only then is the whole request appended, in one transaction (202).
struct IngestRoute {
    let configuration: ServerConfiguration
    let database: Database
    let metrics: ServerMetrics

    static let signatureHeader = HTTPField.Name("X-ScoreFeed-Signature")!
    static let timestampHeader = HTTPField.Name("X-ScoreFeed-Timestamp")!

    /// The request's span continues the caller's trace (a W3C `traceparent`/`tracestate`), if any.
    func handle(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        var caller = InstrumentationContext.topLevel
        InstrumentationSystem.instrument.extract(request.headers, into: &caller, using: HTTPFieldsExtractor())
        return try await withSpan("POST /v1/feed", context: caller, ofKind: .server) { span in
            span.attributes["http.request.method"] = "POST"
            span.attributes["http.route"] = "/v1/feed"
            do {
                let response = try await ingest(request)
                span.attributes["http.response.status_code"] = Int(response.status.code)
                return response
            } catch let error as APIError {
                metrics.ingestRefused(status: error.status.code)
                span.attributes["http.response.status_code"] = Int(error.status.code)
                throw error
            }
        }
    }

    private func ingest(_ request: Request) async throws -> Response {
        let bearer = Credentials.bearer(request.headers[.authorization])
        let signature = request.headers[Self.signatureHeader]
        guard bearer != nil || signature != nil else {
            var error = APIError(
                .unauthorized, "unauthorized",
                "send `Authorization: Bearer <ingest key>`, or `X-ScoreFeed-Timestamp` with an `X-ScoreFeed-Signature: sha256=<hex>` HMAC of \"<timestamp>.<body>\""
            )
            error.headers[.wwwAuthenticate] = "Bearer"
            throw error
        }
        if let bearer, !Credentials.matches(bearer, anyOf: configuration.ingestKeys) {
            throw APIError(.forbidden, "forbidden", "this bearer key is not an ingest key")
        }
        let mediaType = request.mediaType
        guard mediaType == "application/json" || mediaType == "application/x-ndjson" else {
            throw APIError(
                .unsupportedMediaType, "unsupported-media-type",
                "send application/json (one message or an array) or application/x-ndjson, not \"\(mediaType)\"")
        }
        let body = try await request.collectBody(
            upTo: configuration.maxBodyBytes, what: "the body (split it into several requests)")
        if bearer == nil, let signature {
            guard let secret = configuration.ingestSecret else {
                throw APIError(.forbidden, "forbidden", "this server accepts no signed requests (no ingest secret)")
            }
            switch Credentials.verifySignature(
                signature, timestamp: request.headers[Self.timestampHeader], body: body, secret: secret,
                now: configuration.now(), tolerance: configuration.signatureTolerance)
            {
            case .accepted: break
            case .expired(let reason): throw APIError(.unauthorized, "signature-expired", reason)
            case .mismatch:
                throw APIError(
                    .forbidden, "forbidden", "the X-ScoreFeed-Signature does not match \"<timestamp>.<body>\"")
            }
        }
        let messages = try parse(body, ndjson: mediaType == "application/x-ndjson")
        let ingestor = try await database.ingestor()
        let outcomes: [AppendOutcome]
        do {
            // The events keep the append's context: the projector and delivery, on any node, continue it.
            outcomes = try await withSpan("append") { span in
                span.attributes["scorefeed.messages"] = messages.count
                return try await ingestor.ingest(messages, partial: false, traceParent: TraceParent.of(span.context))
            }
        } catch let error as PostgresError where error.kind == .connection {
            await database.ingestorLost(ingestor)
            throw error
        } catch let rejection as IngestRejection {
            if case .idConflict(let conflict) = rejection.error { throw Self.refusal(conflict, index: rejection.index) }
            throw APIError(
                .conflict, "rejected",
                "message \(rejection.index) (\"\(rejection.messageId)\") is refused: \(rejection.error); nothing was stored",
                details: .object([
                    "index": .int(rejection.index), "messageId": .string(rejection.messageId),
                    "code": .string(rejection.code), "reason": .string("\(rejection.error)"),
                ]))
        } catch let error as StoreError {
            switch error {
            case .versionConflict, .concurrentDuplicate:
                // Other writers got in between, twice: nothing stored; the same request can simply be sent again.
                var busy = APIError(.serviceUnavailable, error.code, "\(error); nothing was stored, retry the request")
                busy.headers[.retryAfter] = "1"
                throw busy
            case .idConflict(let conflict):
                throw Self.refusal(conflict, index: nil)
            case .migrations, .corruptEvent, .corruptState:
                throw error  // the server's fault: 500, logged
            }
        }
        let duplicates = outcomes.filter { if case .duplicate = $0 { true } else { false } }.count
        metrics.ingested(appended: outcomes.count - duplicates, duplicates: duplicates)
        return .json(
            .object([
                "accepted": .int(outcomes.count - duplicates), "duplicates": .int(duplicates),
                "received": .int(messages.count),
            ]), status: .accepted)
    }

    /// The 409 for a message id that already stands for another message: names the id and the game
    /// of the message it stands for (`details.gameId`, with `details.position` when it is stored).
    static func refusal(_ conflict: IdConflict, index: Int?) -> APIError {
        var details: JSONObject = [
            "messageId": .string(conflict.messageId), "gameId": .string(conflict.gameId),
            "position": conflict.position.map(JSONValue.int) ?? .null,
        ]
        if let index { details["index"] = .int(index) }
        let which = index.map { "message \($0) (\"\(conflict.messageId)\")" } ?? "message \"\(conflict.messageId)\""
        let other =
            conflict.position.map { "the message stored at position \($0)" }
            ?? "another message of this request (or of one written at the same moment)"
        return APIError(
            .conflict, IdConflict.code,
            "\(which) reuses the id of \(other), for game \"\(conflict.gameId)\", with other content; "
                + "an id stands for one message: send new content with a new id. Nothing was stored",
            details: .object(details))
    }

    /// At most this many problems are listed in a 400; the rest are counted in `moreDetails`.
    static let maxListedProblems = 20

    /// Every message, or a 400 that names the first ``maxListedProblems`` bad ones and counts the
    /// rest. Entries are consumed one at a time, so a body of many bad lines costs little memory and
    /// the answer stays small whatever the body.
    private func parse(_ body: Data, ndjson: Bool) throws -> [FeedMessage] {
        var messages: [FeedMessage] = []
        var problems: [JSONValue] = []
        var invalid = 0
        var entries = 0
        let collect = { (entry: BatchEntry) in
            entries += 1
            switch entry.result {
            case .success(let message): messages.append(message)
            case .failure(let error):
                invalid += 1
                guard problems.count < Self.maxListedProblems else { return }
                var problem: JSONObject = [
                    "index": .int(entry.index), "code": .string(error.code),
                    "reason": .string(error.reason.clipped()),
                ]
                if let field = error.field { problem["field"] = .string(field.clipped()) }
                if let line = entry.line { problem["line"] = .int(line) }
                if let id = error.messageId { problem["messageId"] = .string(id.clipped()) }
                problems.append(.object(problem))
            }
        }
        if ndjson {
            FeedParser.forEachEntry(ndjson: body, collect)
        } else {
            do {
                try FeedParser.forEachEntry(json: body, collect)
            } catch {
                throw APIError.badRequest("the body is not usable: \(error.reason.clipped())")
            }
        }
        guard entries > 0 else { throw APIError.badRequest("the body holds no message") }
        guard invalid == 0 else {
            var error = APIError(
                .badRequest, "invalid-messages",
                "\(invalid) of \(entries) message(s) are invalid; nothing was stored",
                details: .array(problems))
            error.moreDetails = invalid - problems.count
            throw error
        }
        return messages
    }
}

extension String {
    /// At most `limit` characters (then an ellipsis): text that may echo a client's input stays small.
    func clipped(to limit: Int = 200) -> String {
        utf8.count <= limit || count <= limit ? self : prefix(limit) + "…"
    }
}
