import ScoreStore

/// The problems of one request body, collected so that its 400 lists them all at once, each naming its
/// field (at most ``limit``, as the webhook's `invalid-messages`), rather than one field at a time.
struct BodyProblems {
    /// At most this many problems are listed; `moreDetails` counts the others.
    static let limit = 20
    /// Each field's first problem, in the order they were found.
    private(set) var all: [(field: String, reason: String)] = []

    /// What `body` returns, or `nil` with its problem recorded when it fails naming a field (a 400
    /// `invalid-field` or an ``ActivityError``); any other error is thrown.
    mutating func check<T>(_ body: () throws -> T) throws -> T? {
        do {
            return try body()
        } catch let error as ActivityError {
            add(error.field, error.reason)
        } catch let error as APIError where error.code == "invalid-field" {
            guard case .array(let details)? = error.details else { throw error }
            for case .object(let detail) in details {
                if case .string(let field)? = detail["field"], case .string(let reason)? = detail["reason"] {
                    add(field, reason)
                }
            }
        }
        return nil
    }

    /// Records a problem of `field`, unless it has one already (a later check would only repeat it).
    mutating func add(_ field: String, _ reason: String) {
        guard !all.contains(where: { $0.field == field }) else { return }
        all.append((field, reason))
    }

    /// The 400 listing every problem, `invalid-field` as for one; nothing when the body has none.
    func finish() throws {
        guard let first = all.first else { return }
        guard all.count > 1 else { throw ActivityRoutes.invalid(first.field, first.reason) }
        let listed = all.prefix(Self.limit)
        var error = APIError(
            .badRequest, "invalid-field",
            "\(all.count) fields are invalid: " + listed.map { "\($0.field): \($0.reason)" }.joined(separator: "; "),
            details: .array(
                listed.map { .object(["field": .string($0.field), "reason": .string($0.reason)]) }))
        error.moreDetails = all.count - listed.count
        throw error
    }
}
