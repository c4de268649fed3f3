import Synchronization

/// Counts the `PGresult` handles of one connection that are still alive, so tests can check that
/// every result is cleared exactly once.
public final class ResultCounter: Sendable {
    private let value = Atomic<Int>(0)

    init() {}

    func add(_ delta: Int) { value.add(delta, ordering: .relaxed) }

    /// Results created on the connection and not yet cleared.
    public var live: Int { value.load(ordering: .relaxed) }
}
