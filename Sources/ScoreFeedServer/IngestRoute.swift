import Foundation
import HTTPTypes
import Hummingbird
import PostgresClient
import ScoreDomain
import ScoreStore

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

    func handle(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        do {
            return try await ingest(request)
        } catch let error as APIError {
            metrics.ingestRefused(status: error.status.code)
            throw error
        }
    }

    private func ingest(_ request: Request) async throws -> Response {
        let bearer = Credentials.bearer(request.headers[.authorization])
        let signature = request.headers[Self.signatureHeader]
        guard bearer != nil || signature != nil else {
            var error = APIError(
                .unauthorized, "unauthorized",
                "send `Authorization: Bearer <ingest key>` or an `X-ScoreFeed-Signature: sha256=<hex>` HMAC of the body"
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
            guard let secret = configuration.ingestSecret,
                Credentials.signatureMatches(signature, body: body, secret: secret)
            else {
                throw APIError(.forbidden, "forbidden", "the X-ScoreFeed-Signature does not match the body")
            }
        }
        let messages = try parse(body, ndjson: mediaType == "application/x-ndjson")
        let ingestor = try await database.ingestor()
        let outcomes: [AppendOutcome]
        do {
            outcomes = try await ingestor.ingest(messages, partial: false)
        } catch let error as PostgresError where error.kind == .connection {
            await database.ingestorLost(ingestor)
            throw error
        } catch let rejection as IngestRejection {
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
            case .migrations, .corruptEvent:
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

    /// Every message, or a 400 that names each bad one.
    private func parse(_ body: Data, ndjson: Bool) throws -> [FeedMessage] {
        let entries: [BatchEntry]
        if ndjson {
            entries = FeedParser.parseBatch(ndjson: body)
        } else {
            do {
                entries = try FeedParser.parseBatch(json: body)
            } catch {
                throw APIError.badRequest("the body is not usable: \(error.reason)")
            }
        }
        guard !entries.isEmpty else { throw APIError.badRequest("the body holds no message") }
        var messages: [FeedMessage] = []
        var problems: [JSONValue] = []
        for entry in entries {
            switch entry.result {
            case .success(let message): messages.append(message)
            case .failure(let error):
                var problem: [String: JSONValue] = [
                    "index": .int(entry.index), "code": .string(error.code), "reason": .string(error.reason),
                ]
                if let field = error.field { problem["field"] = .string(field) }
                if let line = entry.line { problem["line"] = .int(line) }
                if let id = error.messageId { problem["messageId"] = .string(id) }
                problems.append(.object(problem))
            }
        }
        guard problems.isEmpty else {
            throw APIError(
                .badRequest, "invalid-messages",
                "\(problems.count) of \(entries.count) message(s) are invalid; nothing was stored",
                details: .array(problems))
        }
        return messages
    }
}
