/// The member names a reader of a document reads, for ``JSONValue/parse(_:keeping:)``: every object, at
/// any depth, keeps only the members of these names; the values of the others are checked (their JSON
/// syntax, their strings' UTF-8, the nesting limit) and skipped, never built. A provider document's
/// converter reads a tenth to a half of its bytes (coordinates, descriptions, statistics, players'
/// lists are not read), so the tree it gets costs that much less to build and to destroy.
///
/// The names are matched at any depth, not by path: a name read in one object is kept in every object.
/// A name may be kept only where its value is an object (a document's `summary` object, where every play
/// also has a `summary` text). Duplicate keys are rejected among the kept members only.
public struct JSONMemberFilter: Sendable, Equatable {
    /// The member names kept.
    public let names: Set<String>
    /// Those of ``names`` kept only where their value is an object.
    public let objectsOnly: Set<String>

    public init(_ names: Set<String>, objectsOnly: Set<String> = []) {
        self.names = names.union(objectsOnly)
        self.objectsOnly = objectsOnly
    }

    /// The names of `words`, separated by white space; a name written `name{}` is kept only where its
    /// value is an object.
    public init(words: String) {
        let all = words.split(whereSeparator: \.isWhitespace)
        self.init(
            Set(all.filter { !$0.hasSuffix("{}") }.map(String.init)),
            objectsOnly: Set(all.filter { $0.hasSuffix("{}") }.map { String($0.dropLast(2)) }))
    }

    /// The members either filter keeps (a name only where its value is an object only if both say so,
    /// or the one that names it does).
    public func union(_ other: JSONMemberFilter) -> JSONMemberFilter {
        let objects = objectsOnly.intersection(other.objectsOnly).union(objectsOnly.subtracting(other.names))
            .union(other.objectsOnly.subtracting(names))
        return JSONMemberFilter(names.union(other.names).subtracting(objects), objectsOnly: objects)
    }

    /// Whether members named `name` are kept.
    func keeping(_ name: String) -> JSONMemberKeeping {
        guard names.contains(name) else { return .skip }
        return objectsOnly.contains(name) ? .object : .keep
    }
}

/// What a parse does with a member, by its name (``JSONMemberFilter``).
enum JSONMemberKeeping {
    case skip
    case keep
    /// Kept where its value is an object, skipped otherwise.
    case object
}
