/// Connection targets whose sessions start with a given `search_path`.
public enum SearchPath {
    /// `target` (a `postgresql://` URL or a `key=value` conninfo) with `search_path` set to `schema`
    /// for every connection made with it. `schema` must be a plain identifier.
    public static func scoped(_ target: String, schema: String) -> String {
        precondition(schema.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }, "not a plain identifier")
        if target.hasPrefix("postgres://") || target.hasPrefix("postgresql://") {
            return target + (target.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
        }
        return target + " options='-csearch_path=\(schema)'"
    }
}
