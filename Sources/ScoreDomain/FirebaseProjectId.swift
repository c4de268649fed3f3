/// A Firebase (Google Cloud) project id: one rule for every place that takes one (an app's
/// `SCOREFEED_APP_<NAME>_FIREBASE_PROJECT`, a service account's `project_id`, the FCM sandbox).
public enum FirebaseProjectId {
    /// What a project id may be, as the operator is told.
    public static let rule =
        "6 to 30 characters of a-z, 0-9 and '-', starting with a letter, not ending with '-' "
        + "(after a domain and ':' for a domain-scoped project, as in example.com:scores)"

    /// Whether `text` is a project id: `[a-z][a-z0-9-]{4,28}[a-z0-9]`, optionally after `DOMAIN:` (a
    /// domain-scoped project's, the domain of a-z, 0-9, '.' and '-').
    public static func isValid(_ text: String) -> Bool {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard !parts[0].isEmpty,
                parts[0].unicodeScalars.allSatisfy({ isLowerAlphanumeric($0) || $0 == "." || $0 == "-" })
            else { return false }
        }
        let id = Array(parts[parts.count - 1].unicodeScalars)
        guard (6...30).contains(id.count), ("a"..."z").contains(id[0]), id[id.count - 1] != "-" else { return false }
        return id.allSatisfy { isLowerAlphanumeric($0) || $0 == "-" }
    }

    private static func isLowerAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
