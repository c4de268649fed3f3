import HTTPTypes
import Hummingbird
import PostgresClient
import ScoreDomain

/// An error answered as JSON: `{"error": {"status": …, "code": …, "message": …, "details": …}}`.
struct APIError: Error, HTTPResponseError, CustomStringConvertible {
    var status: HTTPResponse.Status
    /// Stable machine-readable code, e.g. `invalid-messages`.
    var code: String
    var message: String
    var details: JSONValue?
    /// How many problems were left out of `details` to keep the answer small.
    var moreDetails = 0
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ code: String, _ message: String, details: JSONValue? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
    }

    var description: String { "\(status.code) \(code): \(message)" }

    var body: JSONValue {
        var error: JSONObject = [
            "status": .int(status.code), "code": .string(code), "message": .string(message),
        ]
        if let details { error["details"] = details }
        if moreDetails > 0 { error["moreDetails"] = .int(moreDetails) }
        return .object(["error": .object(error)])
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = Response.json(body, status: status)
        response.headers.append(contentsOf: headers)
        return response
    }

    static func notFound(_ what: String) -> APIError { APIError(.notFound, "not-found", what) }

    static func badRequest(_ message: String, details: JSONValue? = nil) -> APIError {
        APIError(.badRequest, "bad-request", message, details: details)
    }
}

extension Response {
    /// A JSON response from a value.
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        json(raw: value.serialized(), status: status)
    }

    /// A JSON response from JSON text already serialised.
    static func json(raw text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}

/// Turns every error into a JSON answer: ours as they are, Hummingbird's (404 for an unknown
/// route, 413 for a body over the limit) with their status, anything else as a logged 500.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try error.response(from: request, context: context)
        } catch let error as HTTPError {
            let message =
                error.body
                ?? (error.status == .notFound
                    ? "no such route: \(request.method) \(request.uri.path.clipped())" : error.status.reasonPhrase)
            let code = error.status == .notFound ? "not-found" : "http-\(error.status.code)"
            var api = APIError(error.status, code, message)
            api.headers = error.headers
            return try api.response(from: request, context: context)
        } catch let error as any HTTPResponseError {
            // Hummingbird's own answers (a malformed request, say), as JSON.
            return try APIError(error.status, "http-\(error.status.code)", error.status.reasonPhrase).response(
                from: request, context: context)
        } catch let error as PostgresError where error.kind == .connection {
            context.logger.warning("the database connection was lost", metadata: ["error": "\(error)"])
            var api = APIError(.serviceUnavailable, "database-unavailable", "the database is not reachable; retry")
            api.headers[.retryAfter] = "1"
            return try api.response(from: request, context: context)
        } catch {
            context.logger.error(
                "request failed", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            return try APIError(.internalServerError, "internal", "the server failed; see its log").response(
                from: request, context: context)
        }
    }
}
