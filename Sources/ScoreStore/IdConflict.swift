import ScoreDomain

/// A message id that already stands for another message: one stored in the log, or one earlier in
/// the same batch. An id means one message: sent again with the same content it is a duplicate
/// (nothing is added); with other content (another game, another time, other fields) it is refused
/// with this, and nothing of the new message is stored.
public struct IdConflict: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable code, `id-conflict`.
    public static let code = "id-conflict"

    /// The id sent twice.
    public var messageId: String
    /// The game of the message the id already stands for.
    public var gameId: String
    /// That message's position in the log; `nil` when it is earlier in the same batch (not stored).
    public var position: Int?

    /// Creates a conflict.
    public init(messageId: String, gameId: String, position: Int?) {
        self.messageId = messageId
        self.gameId = gameId
        self.position = position
    }

    public var description: String {
        let other =
            position.map { "the message stored at position \($0)" }
            ?? "a message earlier in the batch (or written at the same time)"
        return "\(Self.code): message id \"\(messageId)\" already stands for another message, \(other) "
            + "(game \"\(gameId)\"); a new message needs a new id"
    }

    /// The conflict when `message` reuses the id of `earlier` with other content, else `nil`.
    static func between(_ message: FeedMessage, _ earlier: FeedMessage, position: Int?) -> IdConflict? {
        guard !message.hasSameContent(as: earlier) else { return nil }
        return IdConflict(messageId: message.id, gameId: earlier.gameId, position: position)
    }

    /// The first message of `messages` whose id an earlier one of them has, with other content: its
    /// index, the earlier one's and the conflict. Pure; the content is compared only for ids seen twice.
    public static func first(in messages: some Collection<FeedMessage>)
        -> (index: Int, earlier: Int, conflict: IdConflict)?
    {
        var first: [String: (index: Int, message: FeedMessage)] = [:]
        for (index, message) in messages.enumerated() {
            guard let earlier = first[message.id] else {
                first[message.id] = (index, message)
                continue
            }
            if let conflict = between(message, earlier.message, position: nil) {
                return (index, earlier.index, conflict)
            }
        }
        return nil
    }
}
