/// The members of a JSON object: keys and values in document order (or in the order they were set),
/// each key once.
///
/// A compact stand-in for `[String: JSONValue]` with the parts of its API that JSON code uses. The
/// values are one array; the keys are a ``JSONObjectShape`` that the objects of a document with the
/// same keys in the same order share (every play of a play-by-play): a 16-member play is about 420
/// bytes, where a Swift dictionary has 32 buckets (1.4 kB) and hashes every key with SipHash on every
/// insertion and lookup. A lookup compares keys one by one (a dozen comparisons of 16-byte small
/// strings cost less than hashing one); a shape of more than ``indexedCount`` keys also keeps an index
/// by key, so a large object (a document's map of players by id) is not searched linearly.
///
/// Equality ignores order, as for a dictionary; ``JSONValue``'s serialization sorts the keys.
public struct JSONObject: Sendable {
    /// A member: `for (key, value) in object`.
    public typealias Element = (key: String, value: JSONValue)

    /// Shapes of more keys than this are indexed by key.
    static let indexedCount = 24

    private var shape: JSONObjectShape
    private var items: [JSONValue]

    /// An empty object.
    public init() {
        shape = .empty
        items = []
    }

    /// The members of `dictionary` (in the dictionary's order).
    public init(_ dictionary: [String: JSONValue]) {
        shape = JSONObjectShape(keys: Array(dictionary.keys))
        items = Array(dictionary.values)
    }

    /// An object of `values` for the keys of `shape`, in order (the parser's).
    init(shape: JSONObjectShape, values: [JSONValue]) {
        self.shape = shape
        self.items = values
    }

    /// The number of members.
    public var count: Int { items.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { items.isEmpty }

    /// The keys, in order.
    public var keys: [String] { shape.keys }

    /// The values, in order.
    public var values: [JSONValue] { items }

    /// The value of `key`, or `nil` when there is no such member; setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = shape.position(of: key) else { return nil }
            return items[position]
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Sets the value of `key` (appended when new).
    /// - Returns: the value it replaced, or `nil` when the key is new.
    @discardableResult
    public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
        if let position = shape.position(of: key) {
            let old = items[position]
            items[position] = value
            return old
        }
        if !isKnownUniquelyReferenced(&shape) { shape = JSONObjectShape(keys: shape.keys) }
        shape.append(key)
        items.append(value)
        return nil
    }

    /// Removes the member `key`.
    /// - Returns: its value, or `nil` when there was none.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let position = shape.position(of: key) else { return nil }
        var keys = shape.keys
        keys.remove(at: position)
        shape = JSONObjectShape(keys: keys)
        return items.remove(at: position)
    }

    /// The rows of a table (`headers` and `rowSet`), each as an object of `keys`: one shape for every
    /// row. A key given twice keeps its first value; a row shorter than the keys has only those it
    /// reaches, the values of a longer one past the keys are left out.
    public static func table(keys: [String], rows: [[JSONValue]]) -> [JSONObject] {
        var seen = Set<String>()
        var firsts: [Int] = []
        for (position, key) in keys.enumerated() where seen.insert(key).inserted { firsts.append(position) }
        let shape = JSONObjectShape(keys: firsts.map { keys[$0] })
        return rows.map { row in
            if row.count >= keys.count { return JSONObject(shape: shape, values: firsts.map { row[$0] }) }
            var object = JSONObject()
            for (key, value) in zip(keys, row) where object[key] == nil { object[key] = value }
            return object
        }
    }

    /// This object with the members of `other` added: a key of both gets `combine(ours, theirs)`.
    public func merging(
        _ other: JSONObject, uniquingKeysWith combine: (JSONValue, JSONValue) throws -> JSONValue
    ) rethrows -> JSONObject {
        var merged = self
        for (key, value) in other {
            if let ours = merged[key] {
                merged[key] = try combine(ours, value)
            } else {
                merged[key] = value
            }
        }
        return merged
    }

    /// The same keys with `transform` applied to each value.
    public func mapValues(_ transform: (JSONValue) throws -> JSONValue) rethrows -> JSONObject {
        JSONObject(shape: shape, values: try items.map(transform))
    }
}

extension JSONObject: RandomAccessCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { items.count }
    public subscript(position: Int) -> Element { (shape.keys[position], items[position]) }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// The members in the literal's order. A key written twice is a programming error (as for `Dictionary`).
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        shape = JSONObjectShape(keys: elements.map(\.0))
        items = elements.map(\.1)
        precondition(Set(shape.keys).count == items.count, "a key written twice in a JSON object literal")
    }
}

extension JSONObject: Equatable {
    /// The same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.shape === rhs.shape { return lhs.items == rhs.items }
        for (position, key) in lhs.shape.keys.enumerated() {
            // Same order (the usual case) first, then a lookup.
            if rhs.shape.keys[position] == key {
                guard rhs.items[position] == lhs.items[position] else { return false }
            } else if rhs[key] != lhs.items[position] {
                return false
            }
        }
        return true
    }
}

/// The keys of a ``JSONObject``, in order: shared by the objects of one document that have the same
/// keys in the same order (the parser's ``JSONShapeTable``), and by copies of an object.
///
/// Copy on write: an object adds a key to its shape only while it is the shape's one owner
/// (`isKnownUniquelyReferenced`) and otherwise makes its own, so a shared shape never changes: that is
/// what makes it `Sendable`.
final class JSONObjectShape: @unchecked Sendable {
    /// The shape of the empty object (never changed: no object is its one owner).
    static let empty = JSONObjectShape(keys: [])

    // Unchecked exclusivity: only the shape's one owner changes it (see above), so no access can
    // overlap a change; a checked access of a class's stored property is a runtime call on every
    // lookup (a fifth of reading a play's fields).
    @exclusivity(unchecked) private(set) var keys: [String]
    /// Each key's fingerprint (``JSONKeyTable``), so that a lookup compares integers and only the key
    /// whose fingerprint matches as text.
    @exclusivity(unchecked) private var fingerprints: [UInt64]
    /// Each key's position, for shapes of more than ``JSONObject/indexedCount`` keys.
    @exclusivity(unchecked) private var index: [String: Int]?

    /// The shape of `keys`, which must be distinct, with their fingerprints when the caller has them.
    init(keys: [String], fingerprints: [UInt64]? = nil) {
        self.keys = keys
        self.fingerprints = fingerprints ?? keys.map(JSONKeyTable.fingerprint)
        if keys.count > JSONObject.indexedCount { buildIndex() }
    }

    /// The key's position, or `nil` when the shape has no such key.
    func position(of key: String) -> Int? {
        if let index { return index[key] }
        if keys.count <= 8 {
            // Lengths first: inlined, where a comparison of two different texts is a call.
            let length = key.utf8.count
            return keys.firstIndex { $0.utf8.count == length && $0 == key }
        }
        let fingerprint = JSONKeyTable.fingerprint(key)
        for position in fingerprints.indices where fingerprints[position] == fingerprint && keys[position] == key {
            return position
        }
        return nil
    }

    /// Adds `key`, which the shape does not have, at the end (only by the shape's one owner).
    func append(_ key: String) {
        keys.append(key)
        fingerprints.append(JSONKeyTable.fingerprint(key))
        if index != nil {
            index?[key] = keys.count - 1
        } else if keys.count > JSONObject.indexedCount {
            buildIndex()
        }
    }

    private func buildIndex() {
        var index = [String: Int](minimumCapacity: keys.count)
        for (position, key) in keys.enumerated() { index[key] = position }
        self.index = index
    }
}
