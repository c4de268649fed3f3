/// Why a Retrosheet game (or a whole file) could not be read: where (file, line) and why.
///
/// A game that breaks the event-file spec fails as a whole; ``RetrosheetFile`` still returns the
/// games before and after it. `description` is `<file> line <n>: <reason> (game <id>)`.
public struct RetrosheetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem, stable for callers and tests.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The first field of a line is not a known record type.
        case unknownRecord = "unknown-record"
        /// A record has fewer fields than its type needs, or a quoted field is not closed.
        case truncatedLine = "truncated-line"
        /// The event of a `play` record does not follow the event grammar.
        case unparsablePlay = "unparsable-play"
        /// The event moves a runner that is not there, puts two runners on one base, or makes a
        /// fourth out.
        case impossibleAdvance = "impossible-advance"
        /// A field has a value the spec does not allow (inning `0`, half `2`, a bad game id, …), or a
        /// play comes after a later half-inning.
        case invalidValue = "invalid-value"
        /// The file could not be read.
        case unreadable
    }

    /// The kind of problem.
    public var kind: Kind
    /// The file name given to the parser, e.g. `2019ANA.EVA`.
    public var file: String
    /// 1-based line number of the offending record (0 when the whole file is at fault).
    public var line: Int
    /// The `id` of the game the line belongs to, when known.
    public var gameId: String?
    /// A sentence for an operator, e.g. `no runner on 2nd for advance "2-3" in "S8.2-3"`.
    public var reason: String

    /// Creates an error.
    public init(kind: Kind, file: String, line: Int, gameId: String? = nil, reason: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.gameId = gameId
        self.reason = reason
    }

    /// `<file> line <n>: <reason> (game <id>)`, e.g.
    /// `2019ANA.EVA line 1234: "S8.2-3" moves a runner from 2nd, which is empty (game ANA201904040)`.
    public var description: String {
        var text = "\(file) line \(line): \(reason)"
        if let gameId { text += " (game \(gameId))" }
        return text
    }
}
