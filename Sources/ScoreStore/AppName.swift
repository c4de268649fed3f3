/// The app a registration belongs to (the `app` column of activities, devices and channels): the
/// app whose key made it. Another app's key cannot see, change, delete or re-route it.
public enum AppName {
    /// The app of a bare key in `SCOREFEED_APP_KEYS`, of the command line's registrations (without
    /// `--app`) and of every row stored before apps had names (migration 0022).
    public static let `default` = "default"

    /// What an app name may be, as the operator is told.
    public static let rule = "1 to 32 characters of a-z, 0-9 and '-', starting with a letter"

    /// Whether `name` is an app name: `[a-z][a-z0-9-]{0,31}`.
    public static func isValid(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        guard (1...32).contains(scalars.count), ("a"..."z").contains(scalars[0]) else { return false }
        return scalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}
