/// Errors of the store and the ingest pipeline, with stable codes.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    /// The schema folder or the migration history is not usable.
    case migrations(String)
    /// Another writer appended to the stream first.
    case versionConflict(gameId: String, expected: Int, actual: Int?)
    /// The same message id was appended by a concurrent transaction that committed first.
    case concurrentDuplicate(messageId: String)
    /// A message reuses the id of another message (``IdConflict``); nothing of the batch was appended.
    case idConflict(IdConflict)
    /// A stored event could not be read back.
    case corruptEvent(position: Int, reason: String)
    /// A stored projection row could not be read back (rebuild the projection).
    case corruptState(reason: String)

    public var code: String {
        switch self {
        case .migrations: "migrations"
        case .versionConflict: "version-conflict"
        case .concurrentDuplicate: "concurrent-duplicate"
        case .idConflict: IdConflict.code
        case .corruptEvent: "corrupt-event"
        case .corruptState: "corrupt-state"
        }
    }

    public var description: String {
        switch self {
        case .migrations(let reason): "migrations: \(reason)"
        case .versionConflict(let gameId, let expected, let actual):
            "version conflict on game \"\(gameId)\": expected version \(expected), "
                + (actual.map { "the stream is at \($0)" } ?? "another writer appended first")
        case .concurrentDuplicate(let messageId):
            "message \"\(messageId)\" was appended by a concurrent writer; retry to see it as a duplicate"
        case .idConflict(let conflict): conflict.description
        case .corruptEvent(let position, let reason): "event at position \(position) cannot be read: \(reason)"
        case .corruptState(let reason): "a stored game state cannot be read (run `scorefeed rebuild`): \(reason)"
        }
    }
}
