/// Why a document is not a usable GUMBO live feed: the first field found wrong, and why.
public struct MLBSnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable code for each kind of problem.
    public enum Code: String, Sendable {
        /// The text is not JSON.
        case invalidJSON = "invalid-json"
        /// A required member is absent.
        case missingField = "missing-field"
        /// A member has the wrong type, is out of range or has an unexpected value.
        case invalidField = "invalid-field"
    }

    /// What is wrong.
    public var code: Code
    /// The dotted path of the field, e.g. `liveData.linescore.outs` (`nil` for the whole document).
    public var field: String?
    /// Why.
    public var reason: String

    /// Creates an error.
    public init(_ code: Code, field: String?, _ reason: String) {
        self.code = code
        self.field = field
        self.reason = reason
    }

    /// `field "<path>": <reason>`, or the reason alone.
    public var description: String {
        field.map { "field \"\($0)\": \(reason)" } ?? reason
    }
}
