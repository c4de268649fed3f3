import Foundation
import ScoreDomain

extension RetrosheetGame {
    /// Scheduled first pitch: `info,date` + `info,starttime` at a fixed −04:00 offset (19:05 when the
    /// start time is unknown). See `GameClock` for the whole time model.
    public var startsAt: Date {
        Date(timeIntervalSince1970: TimeInterval(GameClock.startSeconds(info: info, id: id)))
    }

    /// The game as canonical ScoreFeed messages, accepted in order by `ScoreFold.apply`.
    ///
    /// Game id = ``id``; message ids `<id>-0001`, `<id>-0002`, … (deterministic). Order:
    /// `game.scheduled` (one day before `startsAt`; teams from `info,visteam`/`hometeam`, named from
    /// `teams` when given), `game.started` at `startsAt`, then per play: `inning.changed` when a new
    /// half-inning starts (not for Top 1st), `run.scored` for its runs (chunks of at most 4, credited
    /// to the team at bat), `out.recorded` for its outs, then `bases.changed` when the occupied bases
    /// differ from what the fold shows (empty after a third out; a `radj` runner shows at the start of
    /// the next play); finally `game.ended(.closed)` a minute after the last play. The canonical
    /// `half` is the position in the inning (``RetrosheetState/half``).
    public func messages(teams: RetrosheetTeams? = nil) -> [FeedMessage] {
        let table = teams ?? RetrosheetTeams()
        var messages: [FeedMessage] = []
        messages.reserveCapacity(plays.count * 2 + 40)
        let start = GameClock.startSeconds(info: info, id: id)
        func emit(_ event: ScoreEvent, at seconds: Int) {
            let number = String(messages.count + 1)
            let padded = number.count >= 4 ? number : String(repeating: "0", count: 4 - number.count) + number
            messages.append(
                FeedMessage(
                    id: id + "-" + padded, gameId: id, at: Date(timeIntervalSince1970: TimeInterval(seconds)),
                    event: event))
        }
        emit(
            .gameScheduled(
                home: table.team(code: homeTeam), away: table.team(code: visitingTeam),
                startsAt: Date(timeIntervalSince1970: TimeInterval(start))),
            at: start - 86_400)
        emit(.gameStarted, at: start)

        var clock = start
        var inning = 1
        var half = Half.top
        var shownBases = Bases.empty
        var previous: (batter: String, inning: Int, batting: Side, pitches: Int)?
        for play in plays {
            if play.before.inning != inning || play.before.half != half {
                inning = play.before.inning
                half = play.before.half
                clock += GameClock.halfInningBreakSeconds
                emit(.inningChanged(inning: inning, half: half), at: clock)
                shownBases = .empty
            }
            if play.isNoPlay {
                clock += GameClock.noPlaySeconds
                continue
            }
            let pitches = GameClock.pitchCount(play.pitches)
            var newPitches = pitches
            if let previous, previous.batter == play.batter, previous.inning == play.inning,
                previous.batting == play.batting
            {
                newPitches = max(0, pitches - previous.pitches)
            }
            previous = (play.batter, play.inning, play.batting, pitches)
            // A runner placed by `radj` (or anything else between plays) shows before the play.
            if play.before.bases != shownBases {
                shownBases = play.before.bases
                emit(.basesChanged(shownBases), at: clock)
            }
            clock += max(GameClock.minimumPlaySeconds, GameClock.secondsPerPitch * newPitches)

            var runs = play.runs
            while runs > 0 {
                let chunk = min(4, runs)
                emit(.runScored(team: play.batting, runs: chunk), at: clock)
                runs -= chunk
            }
            if play.outs > 0 {
                emit(.outRecorded(outs: play.outs), at: clock)
            }
            // After the third out the half-inning is over: the bases show empty.
            let bases = play.after.outs == 3 ? Bases.empty : play.after.bases
            if bases != shownBases {
                shownBases = bases
                emit(.basesChanged(bases), at: clock)
            }
        }
        emit(.gameEnded(.closed), at: clock + 60)
        return messages
    }
}
