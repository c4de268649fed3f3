import Foundation
import Retrosheet
import ScoreDomain
import Testing

/// Replays the 1,214 American League home games of 2019 and compares them with the Retrosheet game
/// logs and with Chadwick's state before every play.
@Suite("2019 season replay")
struct SeasonReplayTests {
    @Test func everyFileParsesWithoutFailures() throws {
        let corpus = try RetrosheetData.corpus.get()
        var games = 0
        for name in RetrosheetData.eventFiles {
            for result in corpus.files[name]! {
                switch result {
                case .success: games += 1
                case .failure(let error): Issue.record("\(error)")
                }
            }
        }
        #expect(games == 1214)
    }

    @Test func finalScoresAndLineScoresMatchTheGameLogs() throws {
        let corpus = try RetrosheetData.corpus.get()
        let games = Dictionary(uniqueKeysWithValues: corpus.games.map { ($0.id, $0) })
        var matched = 0
        for expected in corpus.finalScores {
            guard let game = games[expected.gameId] else {
                Issue.record("\(expected.gameId) is not in the event files")
                continue
            }
            let actual = (
                game.final.awayScore, game.final.homeScore, game.totalOuts,
                RetrosheetLineScore.format(game.lineScore.away), RetrosheetLineScore.format(game.lineScore.home)
            )
            if actual
                == (
                    expected.visitorRuns, expected.homeRuns, expected.lengthOuts, expected.visitorLine,
                    expected.homeLine
                )
            {
                matched += 1
            } else {
                let text: String =
                    "\(game.id): got \(actual), expected \(expected.visitorRuns)-\(expected.homeRuns) in "
                    + "\(expected.lengthOuts) outs, \(expected.visitorLine) / \(expected.homeLine)"
                Issue.record("\(text)")
            }
        }
        #expect(corpus.finalScores.count == 1214)
        #expect(matched == 1214)
    }

    @Test func stateBeforeEveryPlayMatchesChadwick() throws {
        let corpus = try RetrosheetData.corpus.get()
        var compared = 0
        var mismatches = 0
        for game in corpus.games {
            let expected = corpus.eventStates[game.id] ?? []
            let plays = game.plays.filter { !$0.isNoPlay }
            guard plays.count == expected.count else {
                Issue.record("\(game.id): \(plays.count) plays, Chadwick has \(expected.count)")
                continue
            }
            for (play, row) in zip(plays, expected) {
                compared += 1
                let state = play.before
                let runners = [state.first ?? "", state.second ?? "", state.third ?? ""]
                let same =
                    play.event == row.event && state.inning == row.inning
                    && (state.batting == .home) == row.battingHome && state.outs == row.outs
                    && state.awayScore == row.awayScore && state.homeScore == row.homeScore
                    && runners.map(\.isEmpty) == row.runners.map(\.isEmpty) && play.outs == row.eventOuts
                if !same {
                    mismatches += 1
                    if mismatches <= 20 {
                        let text: String =
                            "\(game.id) event \(row.eventId) line \(play.line) \(play.event): got inning \(state.inning) "
                            + "\(state.batting) outs \(state.outs) \(state.awayScore)-\(state.homeScore) "
                            + "\(runners) +\(play.outs) outs; Chadwick \(row.inning) \(row.battingHome) "
                            + "outs \(row.outs) \(row.awayScore)-\(row.homeScore) \(row.runners) +\(row.eventOuts)"
                        Issue.record("\(text)")
                    }
                }
                // Runner identities, pinch runners included, also agree.
                #expect(runners == row.runners, "\(game.id) event \(row.eventId) \(play.event)")
            }
        }
        #expect(compared == 96_350)
        #expect(mismatches == 0)
    }

    @Test func canonicalMessagesFoldForEveryGame() throws {
        let corpus = try RetrosheetData.corpus.get()
        var folded = 0
        var hours: [Double] = []
        for game in corpus.games {
            let messages = game.messages(teams: corpus.teams)
            var state: ScoreState?
            var previous = Date.distantPast
            for message in messages {
                if case .basesChanged(let bases) = message.event {
                    #expect(bases != state?.bases, "\(message.id) repeats the bases")
                }
                state = try ScoreFold.apply(message, to: state)
                #expect(message.at >= previous, "\(message.id) goes back in time")
                previous = message.at
            }
            guard let state else { continue }
            let last = game.plays.last { !$0.isNoPlay }!.after
            #expect(state.bases == (last.outs == 3 ? .empty : last.bases), "\(game.id)")
            #expect(state.status == .closed)
            #expect(state.awayScore == game.final.awayScore && state.homeScore == game.final.homeScore, "\(game.id)")
            #expect(state.home.name == corpus.teams.team(code: game.homeTeam).name)
            #expect(Set(messages.map(\.id)).count == messages.count, "\(game.id): message ids repeat")
            #expect(messages.first?.id == game.id + "-0001")
            #expect(messages == game.messages(teams: corpus.teams), "\(game.id): not deterministic")
            hours.append(state.updatedAt.timeIntervalSince(state.startsAt) / 3600)
            folded += 1
        }
        #expect(folded == 1214)
        let mean = hours.reduce(0, +) / Double(max(1, hours.count))
        #expect((2.5...3.5).contains(mean), "mean game length \(mean) h")
        #expect(hours.allSatisfy { (1.0...8.0).contains($0) })
    }
}
