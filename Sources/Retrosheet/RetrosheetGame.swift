import ScoreDomain

/// One `play` record and its effect.
public struct RetrosheetPlay: Sendable, Equatable {
    /// 1-based line number in the event file.
    public var line: Int
    /// The `inning` field.
    public var inning: Int
    /// The team at bat (the `half` field: `0` visitors, `1` home).
    public var batting: Side
    /// Retrosheet id of the batter.
    public var batter: String
    /// The count field, e.g. `32` or `??`.
    public var count: String
    /// The pitch sequence, e.g. `CBFX` (may be empty).
    public var pitches: String
    /// The event string as written, e.g. `S9/L.1-2`.
    public var event: String
    /// The state just before the play (after a half-inning change and any `radj` it follows). For
    /// non-`NP` plays this is what Chadwick's `cwevent` reports.
    public var before: RetrosheetState
    /// The state just after the play.
    public var after: RetrosheetState

    /// `true` for `NP` (no play): it may start a half-inning but changes nothing else.
    public var isNoPlay: Bool { event == "NP" }

    /// Runs scored on the play.
    public var runs: Int { after.score(batting) - before.score(batting) }

    /// Outs made on the play.
    public var outs: Int { after.outs - before.outs }
}

/// One game of an event file (from its `id` record to the next), already replayed.
public struct RetrosheetGame: Sendable, Equatable {
    /// The `id` record, e.g. `ANA201904040` (home team, date, `0` single game or `1`/`2` of a
    /// doubleheader). Also the game id of the canonical messages.
    public var id: String
    /// The file name given to the parser.
    public var file: String
    /// Line of the `id` record.
    public var line: Int
    /// `info` records as key → value (the last one wins).
    public var info: [String: String]
    /// Every `play` record, `NP` included, in file order.
    public var plays: [RetrosheetPlay]
    /// The state after the last play: the final score is `final.awayScore`/`final.homeScore`.
    public var final: RetrosheetState
    /// Runs per inning.
    public var lineScore: RetrosheetLineScore
    /// Outs made in the whole game (the game log's "length in outs").
    public var totalOuts: Int

    /// `info,visteam`.
    public var visitingTeam: String { info["visteam"] ?? "" }
    /// `info,hometeam`.
    public var homeTeam: String { info["hometeam"] ?? "" }
    /// `true` when `info,htbf,true`: the home team bats first in every inning.
    public var homeBatsFirst: Bool { info["htbf"] == "true" }
    /// `0` for a single game, `1` or `2` for the games of a doubleheader (the last character of `id`).
    public var gameNumber: Int { id.last?.wholeNumberValue ?? 0 }
}
