/// Why a feed message was rejected by ``FeedParser``.
///
/// `description` reads like `line 12: field "runs": must be an integer between 1 and 4`; the line
/// and field parts are left out when unknown, and ` (message "m-7")` is appended when the message
/// id was read before the problem was found.
///
/// Codes (stable): `invalid-json` (not JSON at all), `not-an-object` (JSON, but not an object),
/// `missing-field`, `invalid-field` (wrong type, out of range, bad format or value) and
/// `unknown-type` (a `type` this service does not know).
public struct FeedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line number in the input file, when the caller supplied it.
    public var line: Int?
    /// Dotted path of the first bad field (`"home.code"`), or `nil` for whole-message problems.
    public var field: String?
    /// A sentence fragment for an operator, e.g. `must be an integer between 1 and 4`.
    public var reason: String
    /// Stable machine-readable code, see the type's documentation.
    public var code: String
    /// The message's `id`, when it could be read.
    public var messageId: String?

    /// Creates an error.
    public init(line: Int? = nil, field: String? = nil, reason: String, code: String, messageId: String? = nil) {
        self.line = line
        self.field = field
        self.reason = reason
        self.code = code
        self.messageId = messageId
    }

    public var description: String {
        var text = ""
        if let line { text += "line \(line): " }
        if let field { text += "field \"\(field)\": " }
        text += reason
        if let messageId { text += " (message \"\(messageId)\")" }
        return text
    }
}

extension FeedError {
    static func invalidJSON(_ detail: String) -> FeedError {
        FeedError(reason: "invalid JSON: \(detail)", code: "invalid-json")
    }

    static func notAnObject(found: String) -> FeedError {
        FeedError(reason: "a message must be a JSON object, found \(found)", code: "not-an-object")
    }

    static func missing(_ field: String) -> FeedError {
        FeedError(field: field, reason: "is required", code: "missing-field")
    }

    static func invalid(_ field: String, _ reason: String) -> FeedError {
        FeedError(field: field, reason: reason, code: "invalid-field")
    }

    static func unknownType(_ type: String) -> FeedError {
        let known = ScoreEvent.allTypes.joined(separator: ", ")
        return FeedError(
            field: "type", reason: "unknown message type \"\(type)\" (known: \(known))", code: "unknown-type")
    }
}
