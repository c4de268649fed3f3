import ScoreDomain

/// One RFC 6902 operation.
public enum JSONPatchOperation: Sendable, Equatable {
    /// Adds a member, inserts an array element (`-` appends) or replaces the whole document.
    case add(path: JSONPointer, value: JSONValue)
    /// Removes an existing member or element.
    case remove(path: JSONPointer)
    /// Replaces an existing value.
    case replace(path: JSONPointer, value: JSONValue)
    /// Removes the value at `from` and adds it at `path`.
    case move(from: JSONPointer, path: JSONPointer)
    /// Adds a copy of the value at `from` at `path`.
    case copy(from: JSONPointer, path: JSONPointer)
    /// Fails unless the value at `path` equals `value` (deeply; numbers by value, so `1` equals `1.0`).
    case test(path: JSONPointer, value: JSONValue)
}

/// An RFC 6902 JSON Patch over ``JSONValue``: a list of operations applied in order, all or nothing.
public struct JSONPatch: Sendable, Equatable {
    /// The operations, in order.
    public var operations: [JSONPatchOperation]
    /// The most operations a parsed patch may have.
    public static let maximumOperations = 10_000
    /// The deepest nesting a patched document may reach.
    public static let maximumDepth = 512

    /// A patch of these operations.
    public init(_ operations: [JSONPatchOperation]) {
        self.operations = operations
    }

    /// Reads a patch document: an array of objects with `op`, `path`, and `value` (`add`, `replace`,
    /// `test`; `null` is a value) or `from` (`move`, `copy`). Other members are ignored.
    /// - Throws: ``JSONPatchError`` (`invalid-patch`, `invalid-pointer`) naming the operation.
    public init(parsing json: JSONValue) throws(JSONPatchError) {
        guard case .array(let elements) = json else {
            throw JSONPatchError(.invalidPatch, "a JSON Patch must be an array of operations")
        }
        guard elements.count <= Self.maximumOperations else {
            throw JSONPatchError(
                .tooLarge, "a patch of \(elements.count) operations (at most \(Self.maximumOperations))")
        }
        var operations: [JSONPatchOperation] = []
        operations.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do throws(JSONPatchError) {
                operations.append(try JSONPatch.operation(element))
            } catch {
                throw JSONPatchError(error.code, error.reason, operation: index)
            }
        }
        self.operations = operations
    }

    private static func operation(_ json: JSONValue) throws(JSONPatchError) -> JSONPatchOperation {
        guard case .object(let members) = json else {
            throw JSONPatchError(.invalidPatch, "an operation must be a JSON object")
        }
        guard case .string(let op)? = members["op"] else {
            throw JSONPatchError(.invalidPatch, "member \"op\" is required and must be a string")
        }
        func pointer(_ key: String) throws(JSONPatchError) -> JSONPointer {
            guard case .string(let text)? = members[key] else {
                throw JSONPatchError(.invalidPatch, "\(op): member \"\(key)\" is required and must be a string")
            }
            return try JSONPointer(parsing: text)
        }
        func value() throws(JSONPatchError) -> JSONValue {
            guard let value = members["value"] else {
                throw JSONPatchError(.invalidPatch, "\(op): member \"value\" is required")
            }
            return value
        }
        switch op {
        case "add": return .add(path: try pointer("path"), value: try value())
        case "remove": return .remove(path: try pointer("path"))
        case "replace": return .replace(path: try pointer("path"), value: try value())
        case "move": return .move(from: try pointer("from"), path: try pointer("path"))
        case "copy": return .copy(from: try pointer("from"), path: try pointer("path"))
        case "test": return .test(path: try pointer("path"), value: try value())
        default:
            throw JSONPatchError(
                .invalidPatch, "unknown op \"\(op)\" (known: add, remove, replace, move, copy, test)")
        }
    }

    /// The document with every operation applied in order.
    /// - Throws: ``JSONPatchError`` naming the first operation that fails; nothing is applied then.
    public func applied(to document: JSONValue) throws(JSONPatchError) -> JSONValue {
        var copy = document
        // An upper bound of the document's depth, kept through the operations: nothing deeper than
        // ``maximumDepth`` is ever built (deep values would overflow the stack of recursive code).
        var depth = document.depth(upTo: Self.maximumDepth + 1)
        for (index, operation) in operations.enumerated() {
            do throws(JSONPatchError) {
                switch operation {
                case .add(let path, let value), .replace(let path, let value):
                    depth = max(depth, path.tokens.count + value.depth(upTo: Self.maximumDepth + 1))
                case .copy(let from, let path), .move(let from, let path):
                    depth = max(depth, path.tokens.count + max(0, depth - from.tokens.count))
                case .remove, .test:
                    break
                }
                guard depth <= Self.maximumDepth else {
                    throw JSONPatchError(
                        .tooLarge, "the document would be nested deeper than \(Self.maximumDepth) levels")
                }
                try JSONPatch.apply(operation, to: &copy)
            } catch {
                throw JSONPatchError(error.code, error.reason, operation: index)
            }
        }
        return copy
    }

    /// Applies every operation in order, or none: when one fails `document` is left as it was.
    /// - Throws: ``JSONPatchError`` naming the first operation that fails.
    public func apply(to document: inout JSONValue) throws(JSONPatchError) {
        document = try applied(to: document)
    }

    // MARK: - Operations

    private static func apply(_ operation: JSONPatchOperation, to document: inout JSONValue) throws(JSONPatchError) {
        switch operation {
        case .add(let path, let value):
            try add(value, at: path, in: &document)
        case .remove(let path):
            _ = try remove(at: path, in: &document)
        case .replace(let path, let value):
            guard !path.tokens.isEmpty else {
                document = value
                return
            }
            try withParent(of: path, in: &document) { (parent, token) throws(JSONPatchError) in
                switch parent {
                case .object(var members):
                    guard members[token] != nil else { throw notFound(path) }
                    parent = .null
                    members[token] = value
                    parent = .object(members)
                case .array(var elements):
                    let index = try existingIndex(token, count: elements.count, path)
                    parent = .null
                    elements[index] = value
                    parent = .array(elements)
                default:
                    throw notFound(path)
                }
            }
        case .move(let from, let path):
            guard from != path else {
                guard from.resolve(in: document) != nil else { throw notFound(from) }
                return
            }
            guard !from.isProperPrefix(of: path) else {
                throw JSONPatchError(.invalidTarget, "cannot move \(quoted(from)) into its own child \(quoted(path))")
            }
            let value = try remove(at: from, in: &document)
            try add(value, at: path, in: &document)
        case .copy(let from, let path):
            guard let value = from.resolve(in: document) else { throw notFound(from) }
            try add(value, at: path, in: &document)
        case .test(let path, let value):
            guard let actual = path.resolve(in: document) else { throw notFound(path) }
            guard deepEqual(actual, value) else {
                throw JSONPatchError(
                    .testFailed,
                    "test of \(quoted(path)) failed: found \(Self.excerpt(actual)), not \(Self.excerpt(value))"
                )
            }
        }
    }

    private static func add(_ value: JSONValue, at path: JSONPointer, in document: inout JSONValue)
        throws(JSONPatchError)
    {
        guard !path.tokens.isEmpty else {
            document = value
            return
        }
        try withParent(of: path, in: &document) { (parent, token) throws(JSONPatchError) in
            switch parent {
            case .object(var members):
                parent = .null
                members[token] = value
                parent = .object(members)
            case .array(var elements):
                let index: Int
                if token == "-" {
                    index = elements.count
                } else {
                    guard let parsed = JSONPointer.index(token), parsed <= elements.count else {
                        throw badIndex(token, count: elements.count, path)
                    }
                    index = parsed
                }
                parent = .null
                elements.insert(value, at: index)
                parent = .array(elements)
            default:
                throw notFound(path)
            }
        }
    }

    private static func remove(at path: JSONPointer, in document: inout JSONValue) throws(JSONPatchError) -> JSONValue {
        guard !path.tokens.isEmpty else {
            throw JSONPatchError(.invalidTarget, "cannot remove the whole document")
        }
        return try withParent(of: path, in: &document) { (parent, token) throws(JSONPatchError) -> JSONValue in
            switch parent {
            case .object(var members):
                parent = .null
                guard let removed = members.removeValue(forKey: token) else {
                    parent = .object(members)
                    throw notFound(path)
                }
                parent = .object(members)
                return removed
            case .array(var elements):
                let index = try existingIndex(token, count: elements.count, path)
                parent = .null
                let removed = elements.remove(at: index)
                parent = .array(elements)
                return removed
            default:
                throw notFound(path)
            }
        }
    }

    /// Walks to the container holding the last token of `path` and runs `body` on it in place.
    ///
    /// Each level is taken out of its parent while `body` runs, so the storage is uniquely referenced
    /// and modified without copying the rest of the document.
    private static func withParent<T>(
        of path: JSONPointer, in document: inout JSONValue,
        _ body: (inout JSONValue, String) throws(JSONPatchError) -> T
    ) throws(JSONPatchError) -> T {
        try descend(path.tokens[...], path, in: &document, body)
    }

    private static func descend<T>(
        _ tokens: ArraySlice<String>, _ path: JSONPointer, in value: inout JSONValue,
        _ body: (inout JSONValue, String) throws(JSONPatchError) -> T
    ) throws(JSONPatchError) -> T {
        let token = tokens[tokens.startIndex]
        if tokens.count == 1 { return try body(&value, token) }
        let rest = tokens.dropFirst()
        switch value {
        case .object(var members):
            guard var child = members[token] else { throw notFound(path) }
            value = .null
            members[token] = .null
            defer {
                members[token] = child
                value = .object(members)
            }
            return try descend(rest, path, in: &child, body)
        case .array(var elements):
            let index = try existingIndex(token, count: elements.count, path)
            var child = elements[index]
            value = .null
            elements[index] = .null
            defer {
                elements[index] = child
                value = .array(elements)
            }
            return try descend(rest, path, in: &child, body)
        default:
            throw notFound(path)
        }
    }

    private static func existingIndex(_ token: String, count: Int, _ path: JSONPointer) throws(JSONPatchError) -> Int {
        guard let index = JSONPointer.index(token), index < count else { throw badIndex(token, count: count, path) }
        return index
    }

    private static func badIndex(_ token: String, count: Int, _ path: JSONPointer) -> JSONPatchError {
        JSONPatchError(
            .invalidIndex, "\(quoted(path)): \"\(token)\" is not an index of an array of \(count) element(s)")
    }

    private static func notFound(_ path: JSONPointer) -> JSONPatchError {
        JSONPatchError(.pathNotFound, "\(quoted(path)) does not exist")
    }

    private static func quoted(_ path: JSONPointer) -> String { "\"\(path)\"" }

    /// RFC 6902 equality: same type and value, objects with the same members in any order, arrays
    /// element by element, numbers by their numeric value.
    static func deepEqual(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Double(a) == b
        case (.array(let a), .array(let b)): a.count == b.count && zip(a, b).allSatisfy { deepEqual($0, $1) }
        case (.object(let a), .object(let b)):
            a.count == b.count && a.allSatisfy { key, value in b[key].map { deepEqual(value, $0) } ?? false }
        default: false
        }
    }

    /// At most 200 characters of a value's JSON, for messages.
    private static func excerpt(_ value: JSONValue) -> String {
        let text = value.serialized()
        return text.count <= 200 ? text : String(text.prefix(200)) + "…"
    }
}

extension JSONValue {
    /// How deeply the value nests (a scalar is 0), counted no further than `limit`.
    func depth(upTo limit: Int) -> Int {
        guard limit > 0 else { return 0 }
        switch self {
        case .array(let elements):
            return 1 + (elements.lazy.map { $0.depth(upTo: limit - 1) }.max() ?? 0)
        case .object(let members):
            return 1 + (members.values.lazy.map { $0.depth(upTo: limit - 1) }.max() ?? 0)
        default:
            return 0
        }
    }
}
