/// Why a JSON Patch could not be read or applied. When applying, the document is left untouched.
public struct JSONPatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable code for each kind of failure.
    public enum Code: String, Sendable {
        /// The patch document is not an array of operation objects with the required members.
        case invalidPatch = "invalid-patch"
        /// A `path` or `from` is not an RFC 6901 pointer.
        case invalidPointer = "invalid-pointer"
        /// A location the operation needs does not exist (or its parent is not a container).
        case pathNotFound = "path-not-found"
        /// An array token that is not an index, or an index beyond the array.
        case invalidIndex = "invalid-index"
        /// A `test` found a different value.
        case testFailed = "test-failed"
        /// A `move` into one of its own children, or a `remove` of the whole document.
        case invalidTarget = "invalid-target"
        /// The patch is too long, or would nest the document too deeply (a guard against a hostile provider).
        case tooLarge = "too-large"
    }

    /// What went wrong.
    public var code: Code
    /// The 0-based position of the failing operation in the patch, when known.
    public var operation: Int?
    /// A human-readable reason naming the pointer.
    public var reason: String

    /// Creates an error.
    public init(_ code: Code, _ reason: String, operation: Int? = nil) {
        self.code = code
        self.reason = reason
        self.operation = operation
    }

    /// `operation <n>: <reason>`, or the reason alone.
    public var description: String {
        operation.map { "operation \($0): \(reason)" } ?? reason
    }
}
