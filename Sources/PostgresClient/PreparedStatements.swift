/// The statements prepared on one connection, by SQL text.
///
/// Only touched on the connection's own queue (``PostgresSession/queryPrepared(_:_:)``).
final class PreparedStatements: @unchecked Sendable {
    private var names: [String: String] = [:]

    /// The name the statement `sql` was prepared under, if it was.
    func name(of sql: String) -> String? { names[sql] }

    /// A name no statement of the connection has.
    var nextName: String { "scorefeed_\(names.count + 1)" }

    /// Records that `sql` is prepared as `name`.
    func add(_ sql: String, as name: String) { names[sql] = name }
}
