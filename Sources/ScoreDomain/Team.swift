/// A team as shown to fans: a short code ("BOS"), a display name and a logo URL.
///
/// The feed parser guarantees `code` is 1–8 characters of `[A-Za-z0-9]`, `name` is 1–64 characters
/// and `logo` is 0–512 characters (it may be empty).
public struct Team: Sendable, Equatable, Codable {
    /// Short code, e.g. `"BOS"`.
    public var code: String
    /// Display name, e.g. `"Boston Red Sox"`.
    public var name: String
    /// Logo URL; may be empty.
    public var logo: String

    /// Creates a team.
    public init(code: String, name: String, logo: String) {
        self.code = code
        self.name = name
        self.logo = logo
    }
}

/// Which half of an inning is being played: the away team bats in the top, the home team in the bottom.
public enum Half: String, Sendable, Codable, CaseIterable {
    case top
    case bottom

    /// `"Top"` or `"Bottom"`, as used in display strings such as `"Top 4th"`.
    public var displayName: String {
        switch self {
        case .top: "Top"
        case .bottom: "Bottom"
        }
    }
}

/// The home or the away team.
public enum Side: String, Sendable, Codable, CaseIterable {
    case home
    case away
}
