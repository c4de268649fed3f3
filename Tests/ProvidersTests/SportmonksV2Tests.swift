import Foundation
import Providers
import ScoreDomain
import ScoreFeedTesting
import Testing

/// Sportmonks Soccer API 2.0 documents (fixtures/providers/sportmonks-v2, NOTICE.md there): eight real
/// games in four documents (a fixture by id, a `fixtures/date` list, two `livescores` lists) converted
/// and folded, checked against each fixture's own figures (`scores`, each goal's stated `result`, its
/// cards, `winner_team_id`) read with Foundation's JSON reader, not the converter.
@Suite("Sportmonks API v2: fixtures and lists of fixtures to canonical messages")
struct SportmonksV2Tests {
    /// Atlético Madrid 2–0 Celta Vigo, 13 April 2019: a fixture by id, no team includes.
    static let atleticoCelta = "fixture-10420715-excerpt.json"
    /// 16 February 2018: VVV-Venlo 1–1 Groningen, Monaco 4–0 Dijon, Girona 3–0 Leganés (penalties, a
    /// goal at 90+2, `leg` null), no team includes.
    static let fixturesDate = "fixtures-date-2018-02-16-excerpt.json"
    /// 26 December 2019: Aberdeen 2–1 Livingston, Hearts 0–2 Hibernian, with `localTeam`/`visitorTeam`.
    static let scottish = "livescores-2019-12-26-excerpt.json"
    /// 25 May 2019: Bologna 3–2 Napoli, with `goals` and no `events`.
    static let bolognaNapoli = "livescores-2019-05-25-excerpt.json"
    static let all = [atleticoCelta, fixturesDate, scottish, bolognaNapoli]

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: fixture("providers/sportmonks-v2/\(name)")))
    }

    static func convert(_ bytes: Data) throws -> [FeedMessage] {
        try ProviderFormats.convert([bytes], format: SportmonksV2.self).messages
    }

    static func fold(_ messages: [FeedMessage]) throws -> ScoreState {
        var state: ScoreState?
        for message in messages { state = try ScoreFold.apply(message, to: state) }
        return try #require(state)
    }

    /// The messages of each game, in the order the games come.
    static func games(_ messages: [FeedMessage]) -> [[FeedMessage]] {
        var games: [[FeedMessage]] = []
        for message in messages {
            if games.last?.last?.gameId == message.gameId {
                games[games.count - 1].append(message)
            } else {
                games.append([message])
            }
        }
        return games
    }

    /// The fixture objects of a document, as Foundation reads them.
    static func fixtures(_ bytes: Data) throws -> [[String: Any]] {
        let document = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        if let one = document["data"] as? [String: Any] { return [one] }
        return try #require(document["data"] as? [[String: Any]])
    }

    /// A fixture's own figures.
    struct Official {
        struct Goal {
            var id: Int
            var type: String
            var player: String
            var minute: String
            var result: String
            var home: Bool
        }
        var id: Int
        var final: (home: Int, away: Int)
        var halfTime: String
        var fullTime: String
        /// `winner_team_id`, when the fixture states it (`null` for a draw); the 2018 list has none.
        var winner: Int??
        var homeId: Int
        var awayId: Int
        /// Goals, penalties and own goals of `events` (else of `goals`) in minute order.
        var goals: [Goal] = []
        /// Those of the `goals` include, when the fixture has both.
        var goalsInclude: [Goal]?
        var cards = 0
        var sendingsOff = (home: 0, away: 0)

        init(_ fixture: [String: Any]) throws {
            id = try #require(fixture["id"] as? Int)
            homeId = try #require(fixture["localteam_id"] as? Int)
            awayId = try #require(fixture["visitorteam_id"] as? Int)
            winner = fixture.keys.contains("winner_team_id") ? .some(fixture["winner_team_id"] as? Int) : nil
            let scores = try #require(fixture["scores"] as? [String: Any])
            final = (try #require(scores["localteam_score"] as? Int), try #require(scores["visitorteam_score"] as? Int))
            halfTime = try #require(scores["ht_score"] as? String)
            fullTime = try #require(scores["ft_score"] as? String)
            #expect(scores["et_score"] is NSNull && scores["ps_score"] as? String == nil)
            func list(_ key: String) -> [[String: Any]]? {
                (fixture[key] as? [String: Any])?["data"] as? [[String: Any]]
            }
            func goals(_ events: [[String: Any]]) -> [Goal] {
                events.filter { ["goal", "penalty", "own-goal"].contains($0["type"] as? String) }
                    .sorted { minuteOrder($0) < minuteOrder($1) }
                    .map { event in
                        let minute = event["minute"] as? Int ?? 0
                        let extra = event["extra_minute"] as? Int
                        return Goal(
                            id: event["id"] as? Int ?? 0, type: event["type"] as? String ?? "",
                            player: event["player_name"] as? String ?? "",
                            minute: extra.map { "\(minute)+\($0)'" } ?? "\(minute)'",
                            result: event["result"] as? String ?? "",
                            home: event["team_id"] as? String == String(homeId))
                    }
            }
            let events = list("events")
            self.goals = goals(events ?? list("goals") ?? [])
            if events != nil, let include = list("goals") { goalsInclude = goals(include) }
            for event in events ?? list("cards") ?? [] {
                guard let type = event["type"] as? String, ["yellowcard", "redcard", "yellowred"].contains(type)
                else { continue }
                cards += 1
                if type != "yellowcard" {
                    if event["team_id"] as? String == String(homeId) {
                        sendingsOff.home += 1
                    } else {
                        sendingsOff.away += 1
                    }
                }
            }
        }
    }

    static func minuteOrder(_ event: [String: Any]) -> Int {
        (event["minute"] as? Int ?? 0) * 100 + (event["extra_minute"] as? Int ?? 0)
    }

    /// Each game of the document, its fixture's figures and its messages, in the document's order.
    static func pairs(_ name: String) throws -> [(official: Official, messages: [FeedMessage])] {
        let bytes = try data(name)
        let officials = try fixtures(bytes).map { try Official($0) }
        let games = Self.games(try convert(bytes))
        #expect(games.map { $0.first?.gameId } == officials.map { "sportmonks-\($0.id)" })
        return Array(zip(officials, games))
    }

    // MARK: Every real game against its own figures

    @Test(arguments: all)
    func foldsToTheStatedFinalAndHalves(_ name: String) throws {
        let pairs = try Self.pairs(name)
        #expect(pairs.count == [Self.fixturesDate: 3, Self.scottish: 2][name, default: 1])
        for (official, messages) in pairs {
            let state = try Self.fold(messages)
            #expect((state.homeScore, state.awayScore) == official.final)
            #expect("\(state.homeScore)-\(state.awayScore)" == official.fullTime)
            let half = official.halfTime.split(separator: "-").compactMap { Int($0) }
            #expect(
                state.periods.map { "\($0.label) \($0.home)-\($0.away)" } == [
                    "1st Half \(half[0])-\(half[1])",
                    "2nd Half \(state.homeScore - half[0])-\(state.awayScore - half[1])",
                ])
            #expect(state.status == .closed && state.periodLabel == "Final")
            #expect(state.shootout == nil)
            #expect(state.rules.competition == "league-soccer")
            let winner =
                state.homeScore == state.awayScore
                ? nil : state.homeScore > state.awayScore ? official.homeId : official.awayId
            if let stated = official.winner { #expect(stated == winner) }
        }
    }

    @Test(arguments: all)
    func scoringListIsTheDocumentsGoalsWithEveryStatedRunningScore(_ name: String) throws {
        for (official, messages) in try Self.pairs(name) {
            let plays = try Self.fold(messages).scoring.elements
            #expect(plays.count == official.goals.count)
            let kinds: [String: ScoringKind] = ["goal": .goal, "penalty": .penalty, "own-goal": .ownGoal]
            #expect(plays.map(\.kind) == official.goals.map { kinds[$0.type] })
            #expect(plays.map(\.player) == official.goals.map(\.player))
            #expect(plays.map(\.clock) == official.goals.map(\.minute))
            #expect(plays.map(\.side) == official.goals.map { $0.home ? .home : .away })
            // Every running score the document states, after the goal that states it.
            #expect(plays.map { "\($0.homeScore)-\($0.awayScore)" } == official.goals.map(\.result))
            #expect(plays.map(\.id) == official.goals.map { "sportmonks-v2-\(official.id)-\($0.id)" })
            if let include = official.goalsInclude {
                #expect(include.map(\.id) == official.goals.map(\.id))
                #expect(include.map(\.result) == official.goals.map(\.result))
            }
        }
    }

    @Test(arguments: all)
    func cardsAreTheDocumentsCards(_ name: String) throws {
        for (official, messages) in try Self.pairs(name) {
            let state = try Self.fold(messages)
            #expect(state.cards.elements.count == official.cards)
            #expect(state.redCards == SideTally(home: official.sendingsOff.home, away: official.sendingsOff.away))
        }
    }

    @Test func teamsFromTheIncludesOrFromTheirIds() throws {
        let atletico = try Self.fold(try Self.convert(try Self.data(Self.atleticoCelta)))
        #expect(atletico.gameId == "sportmonks-10420715")
        #expect(atletico.home == Team(code: "T7980", name: "Sportmonks team 7980", logo: ""))
        #expect(atletico.away == Team(code: "T36", name: "Sportmonks team 36", logo: ""))
        #expect(atletico.startsAt == parseRFC3339("2019-04-13T16:30:00Z"))
        #expect(atletico.scoring.elements.map(\.player) == ["A. Griezmann", "Álvaro Morata"])
        let scottish = try Self.games(try Self.convert(try Self.data(Self.scottish))).map { try Self.fold($0) }
        // `short_code` when given (ABE, HIB), else derived from the name (Livingston, Hearts).
        #expect(scottish.map(\.home.code) == ["ABE", "HEA"] && scottish.map(\.away.code) == ["LIV", "HIB"])
        #expect(scottish.map(\.home.name) == ["Aberdeen", "Hearts"])
        #expect(scottish[0].home.logo == "https://cdn.sportmonks.com/images//soccer/teams/17/273.png")
        #expect(
            scottish.map(\.startsAt) == [parseRFC3339("2019-12-26T15:00:00Z"), parseRFC3339("2019-12-26T12:30:00Z")])
    }

    @Test func penaltiesAndAGoalInStoppageTime() throws {
        let games = Self.games(try Self.convert(try Self.data(Self.fixturesDate))).map { try? Self.fold($0) }
        let monaco = try #require(games[1])
        #expect(monaco.scoring.elements.map(\.kind) == [.goal, .penalty, .goal, .goal])
        #expect(monaco.scoring.elements.last?.clock == "90+2'" && monaco.scoring.elements.last?.period == 2)
        let girona = try #require(games[2])
        #expect(girona.scoring.elements.first?.kind == .penalty && girona.scoring.elements.first?.player == "C. Stuani")
        // VVV–Groningen states pen scores 0 and 0 without a shoot-out: none is made of them.
        let vvv = try #require(games[0])
        #expect(vvv.shootout == nil && vvv.rules.shootout == false)
        #expect(vvv.cards.elements.map(\.clock).suffix(3) == ["90+1'", "90+2'", "90+2'"])
    }

    @Test(arguments: all)
    func timesAreDerivedFromTheKickOffAndTheMatchMinute(_ name: String) throws {
        for game in Self.games(try Self.convert(try Self.data(name))) {
            let kickOff = try #require(game.first?.at)
            #expect(game.first?.event.type == "game.scheduled" && game.first?.atDerived == false)
            #expect(game.dropFirst().allSatisfy { $0.atDerived })
            #expect(zip(game, game.dropFirst()).allSatisfy { $0.at <= $1.at })
            var period = 0
            for message in game {
                if case .periodStarted(let number, _) = message.event { period = number }
                guard case .pointsScored(let play) = message.event, let ms = play.clockMs else { continue }
                let breaks: Double = period == 2 ? 15 * 60 : 0
                #expect(message.at == kickOff.addingTimeInterval(breaks + Double(ms) / 1000))
            }
        }
    }

    @Test(arguments: all)
    func convertingTwiceGivesTheSameMessagesAndAutoDetectsV2NotV3(_ name: String) throws {
        let bytes = try Self.data(name)
        let first = try Self.convert(bytes)
        let again = try Self.convert(bytes)
        #expect(first == again && first.map { $0.canonicalJSON() } == again.map { $0.canonicalJSON() })
        #expect(Set(first.map(\.id)).count == first.count)
        #expect(first.allSatisfy { $0.id.hasPrefix("sportmonks-v2-") })
        let auto = try ProviderFormats.convert([bytes], format: nil)
        #expect(auto.format.name == "sportmonks-v2" && auto.messages == first)
        #expect(!SportmonksV3.detect(try JSONValue.parse(bytes)))
    }

    @Test(arguments: ["fixture-19135043-excerpt.json", "fixture-19427161-excerpt.json"])
    func aV3DocumentIsNotTakenForV2(_ name: String) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture("providers/sportmonks-v3/\(name)")))
        #expect(!SportmonksV2.detect(try JSONValue.parse(bytes)))
        #expect(try ProviderFormats.convert([bytes], format: nil).format.name == "sportmonks-v3")
    }
}
