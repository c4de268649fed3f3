/// The member names a reader of a document reads, for ``JSONValue/parse(_:keeping:)``: every object, at
/// any depth, keeps only the members of these names; the values of the others are checked (their JSON
/// syntax, their strings' UTF-8, the nesting limit) and skipped, never built. A provider document's
/// converter reads a tenth to a half of its bytes (coordinates, descriptions, statistics, players'
/// lists are not read), so the tree it gets costs that much less to build and to destroy.
///
/// The names are matched at any depth, not by path: a name read in one object is kept in every object.
/// Duplicate keys are rejected among the kept members only.
public struct JSONMemberFilter: Sendable, Equatable {
    /// The member names kept.
    public let names: Set<String>

    public init(_ names: Set<String>) {
        self.names = names
    }

    /// The names of `words`, separated by white space.
    public init(words: String) {
        self.init(Set(words.split(whereSeparator: \.isWhitespace).map(String.init)))
    }

    /// The members either filter keeps.
    public func union(_ other: JSONMemberFilter) -> JSONMemberFilter {
        JSONMemberFilter(names.union(other.names))
    }
}
