/// What may be shown of a connection target.
public enum ConnectionTarget {
    /// `target` (a `postgresql://` URL or a `key=value` conninfo) with its password replaced by `***`:
    /// the `user:password@` of a URL, and every `password` and `sslpassword` parameter of a URL's query
    /// or of a conninfo.
    public static func redacted(_ target: String) -> String {
        var text = target
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            let scheme = text.range(of: "://")!.upperBound
            let authorityEnd = text[scheme...].firstIndex { $0 == "/" || $0 == "?" } ?? text.endIndex
            if let at = text[scheme..<authorityEnd].lastIndex(of: "@"),
                let colon = text[scheme..<at].firstIndex(of: ":")
            {
                text.replaceSubrange(text.index(after: colon)..<at, with: "***")
            }
        }
        // `sslpassword` is the passphrase of the client's TLS key.
        return ["password", "sslpassword"].reduce(text) { redactingParameter($1, in: $0) }
    }

    /// Replaces the value of every `name=value` (a URL query's `&name=` or a conninfo's `name = value`,
    /// quoted or not) by `***`.
    private static func redactingParameter(_ name: String, in text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let found = rest.range(of: name, options: .caseInsensitive) {
            let before = rest[..<found.lowerBound].last
            var cursor = found.upperBound
            while cursor < rest.endIndex, rest[cursor] == " " { cursor = rest.index(after: cursor) }
            let isParameter =
                (before == nil || before == "?" || before == "&" || before == " ")
                && cursor < rest.endIndex && rest[cursor] == "="
            guard isParameter else {
                result += rest[..<found.upperBound]
                rest = rest[found.upperBound...]
                continue
            }
            cursor = rest.index(after: cursor)
            while cursor < rest.endIndex, rest[cursor] == " " { cursor = rest.index(after: cursor) }
            var end = cursor
            if end < rest.endIndex, rest[end] == "'" {
                end = rest.index(after: end)
                while end < rest.endIndex, rest[end] != "'" {
                    if rest[end] == "\\" { end = rest.index(after: end) }
                    if end < rest.endIndex { end = rest.index(after: end) }
                }
                if end < rest.endIndex { end = rest.index(after: end) }
            } else {
                while end < rest.endIndex, rest[end] != "&", rest[end] != " " { end = rest.index(after: end) }
            }
            result += rest[..<cursor] + "***"
            rest = rest[end...]
        }
        return result + rest
    }
}
