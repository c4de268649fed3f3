import Hummingbird

/// Answers 405 with `Allow` when no route has the request's method but some route has its path
/// (`PUT /v1/feed`): the router itself answers 404 for both.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The routes' paths (`{name}` for a parameter) and the methods each takes.
    let methods: [(segments: [Substring], allowed: [String])]

    /// - Parameter routes: every route of the server, as in ``ScoreFeedServer/routes``.
    init(routes: [(method: String, path: String)]) {
        var methods: [(segments: [Substring], allowed: [String])] = []
        for route in routes {
            let segments = route.path.split(separator: "/")
            if let index = methods.firstIndex(where: { $0.segments == segments }) {
                methods[index].allowed.append(route.method)
            } else {
                methods.append((segments, [route.method]))
            }
        }
        self.methods = methods
    }

    /// The methods of the route whose path matches `path` (most literal segments first), or `nil`.
    func allowed(for path: String) -> [String]? {
        let parts = path.split(separator: "/")
        let matches = methods.filter { route in
            route.segments.count == parts.count
                && zip(route.segments, parts).allSatisfy { $0.first == "{" || $0 == $1 }
        }
        let best = matches.max { literals($0.segments) < literals($1.segments) }
        return best?.allowed
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            guard let allowed = allowed(for: request.uri.path), !allowed.contains(request.method.rawValue) else {
                throw error
            }
            var refusal = APIError(
                .methodNotAllowed, "method-not-allowed",
                "\(request.method) is not allowed on this path; allowed: \(allowed.joined(separator: ", "))")
            refusal.headers[.allow] = allowed.joined(separator: ", ")
            throw refusal
        }
    }

    private func literals(_ segments: [Substring]) -> Int { segments.filter { $0.first != "{" }.count }
}
