import ScoreDomain

/// Why the ingest refused a message.
public enum IngestRefusal: Sendable, Equatable, CustomStringConvertible {
    /// The fold refuses it: the game's rules.
    case fold(FoldError)
    /// Its id already stands for another message.
    case idConflict(IdConflict)

    /// The stable code: the fold's, or `id-conflict`.
    public var code: String {
        switch self {
        case .fold(let error): error.code
        case .idConflict: IdConflict.code
        }
    }

    public var description: String {
        switch self {
        case .fold(let error): error.description
        case .idConflict(let conflict): conflict.description
        }
    }
}

/// A message refused part-way through a batch: the messages before `index` were handled (their
/// outcomes are in `outcomes`), nothing of the refused one or after it was stored. A batch that
/// holds one id twice with different content is refused whole: `outcomes` is empty.
public struct IngestRejection: Error, Sendable, CustomStringConvertible {
    /// Outcomes of the messages before the refused one.
    public var outcomes: [AppendOutcome]
    /// Index of the refused message in the batch.
    public var index: Int
    public var messageId: String
    public var error: IngestRefusal

    public var code: String { error.code }
    public var description: String { "message \"\(messageId)\" rejected: \(error)" }
}
