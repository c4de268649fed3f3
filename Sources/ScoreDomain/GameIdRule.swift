/// The one rule for a game id, in the feed and in every API that names a game: 1 to 64 characters of
/// `A-Z a-z 0-9 . _ : -` (providers' ids such as `sr:match:11854838` fit as they are).
public enum GameIdRule {
    /// The rule as an error reason says it.
    public static let text = "must be 1 to 64 characters of A-Z, a-z, 0-9, '.', '_', ':' or '-'"

    /// Whether `id` keeps the rule.
    public static func isValid(_ id: String) -> Bool {
        var count = 0
        for scalar in id.unicodeScalars {
            count += 1
            guard count <= 64, isCharacter(scalar) else { return false }
        }
        return count >= 1
    }

    static func isCharacter(_ scalar: Unicode.Scalar) -> Bool {
        FeedFields.isASCIILetterOrDigit(scalar) || scalar == "." || scalar == "_" || scalar == ":" || scalar == "-"
    }
}
