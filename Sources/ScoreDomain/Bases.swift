/// Which bases have a runner on them.
public struct Bases: Sendable, Equatable, Hashable, Codable {
    public var first: Bool
    public var second: Bool
    public var third: Bool

    public init(first: Bool = false, second: Bool = false, third: Bool = false) {
        self.first = first
        self.second = second
        self.third = third
    }

    /// No runner on base.
    public static let empty = Bases()

    /// `{"first":…,"second":…,"third":…}`.
    public var jsonValue: JSONValue {
        .object(["first": .bool(first), "second": .bool(second), "third": .bool(third)])
    }
}
