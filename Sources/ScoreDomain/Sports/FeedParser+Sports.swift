/// The events of the clock sports (`docs/sports.md`) and `game.scheduled`'s sport and rules.
extension FeedParser {
    /// The event of a clock-sport message type, or `nil` when `type` is not one.
    static func clockSportEvent(_ type: String, _ fields: FeedFields) throws(FeedError) -> ScoreEvent? {
        let team = { () throws(FeedError) -> Side in try fields.choice("team", of: [Side.home, .away]) }
        switch type {
        case "period.started":
            let period = try fields.integer("period", in: 1...99)
            let kind: PeriodKind? =
                fields.members["kind"] == nil ? nil : try fields.choice("kind", of: PeriodKind.allCases)
            return .periodStarted(period: period, kind: kind)
        case "period.ended":
            return .periodEnded(period: try fields.integer("period", in: 1...99))
        case "clock.set":
            guard let ms = try fields.clock("clock", required: true) else { return nil }
            return .clockSet(ms: ms)
        case "clock.started":
            return .clockStarted(ms: try fields.clock("clock", required: false))
        case "clock.stopped":
            return .clockStopped(ms: try fields.clock("clock", required: false))
        case "points.scored":
            let side = try team()
            let kind = try fields.choice(
                "kind", of: ScoringKind.allCases.filter { $0 != .run && $0 != .correction })
            let points = try fields.integer("points", in: 1...6, default: kind.points)
            guard points == kind.points else {
                throw .invalid("points", "a \(kind.rawValue) is worth \(kind.points), not \(points)")
            }
            return .pointsScored(
                PointsScored(
                    team: side, points: points, kind: kind, player: try fields.player(),
                    clockMs: try fields.clock("clock", required: false)))
        case "shootout.attempt":
            return .shootoutAttempt(
                team: try team(), scored: try fields.requiredBoolean("scored"), player: try fields.player())
        case "card.shown":
            return .cardShown(
                team: try team(), card: try fields.choice("card", of: Card.allCases), player: try fields.player(),
                clockMs: try fields.clock("clock", required: false))
        case "situation.changed":
            return .situationChanged(
                try fields.situation(), turnover: try fields.boolean("turnover", default: false),
                clockMs: try fields.clock("clock", required: false))
        case "event.retracted":
            let id = try fields.string("retracts", length: 1...200, rule: "must be a message id of 1 to 200 characters")
            let reason =
                fields.members["reason"] == nil
                ? nil : try fields.string("reason", length: 0...200, rule: "must be a string of at most 200 characters")
            return .retracted(id: id, reason: reason)
        default:
            return nil
        }
    }
}

extension FeedFields {
    /// `sport`, `competition` and `rules` of `game.scheduled`: the sport's default preset when absent.
    func setup() throws(FeedError) -> GameSetup {
        let sport: Sport = members["sport"] == nil ? .baseball : try choice("sport", of: Sport.allCases)
        var rules = GameRules.defaultRules(for: sport)
        if members["competition"] != nil {
            let names = GameRules.presets.filter { $0.sport == sport }.map { $0.rules.competition }
            let rule =
                "must be a competition of \(sport.rawValue): " + names.map { "\"\($0)\"" }.joined(separator: ", ")
            let name = try string("competition", length: 1...32, rule: rule)
            guard let preset = GameRules.preset(name), preset.sport == sport else {
                throw .invalid("competition", rule)
            }
            rules = preset.rules
        }
        if members["rules"] != nil {
            guard sport != .baseball else { throw .invalid("rules", "baseball has no rules to override") }
            let overrides = try object("rules", rule: "must be an object of rules (docs/sports.md)")
            try overrides.override(&rules)
        }
        return GameSetup(sport: sport, rules: rules)
    }

    private func override(_ rules: inout GameRules) throws(FeedError) {
        if members["periods"] != nil { rules.periods = try integer("periods", in: 1...8) }
        if members["periodMinutes"] != nil { rules.periodMinutes = try integer("periodMinutes", in: 1...90) }
        if let overtimes = members["overtimes"] {
            if case .string("unlimited") = overtimes {
                rules.overtimes = nil
            } else {
                guard case .int(let count) = overtimes, (0...20).contains(count) else {
                    throw .invalid(prefix + "overtimes", "must be an integer between 0 and 20 or \"unlimited\"")
                }
                rules.overtimes = count
            }
        }
        if members["overtimeMinutes"] != nil { rules.overtimeMinutes = try integer("overtimeMinutes", in: 0...60) }
        if members["shootout"] != nil { rules.shootout = try requiredBoolean("shootout") }
        if members["tieStands"] != nil { rules.tieStands = try requiredBoolean("tieStands") }
        if let leg = members["firstLeg"] {
            guard case .object(let goals) = leg, case .int(let home)? = goals["home"],
                case .int(let away)? = goals["away"],
                (0...99).contains(home), (0...99).contains(away), goals.count == 2
            else {
                throw .invalid(prefix + "firstLeg", "must be {\"home\": goals, \"away\": goals}, each 0 to 99")
            }
            rules.firstLeg = SideTally(home: home, away: away)
        }
        if members["clockToleranceSeconds"] != nil {
            rules.clockToleranceMs = try integer("clockToleranceSeconds", in: 0...60) * 1000
        }
    }

    /// A boolean that must be present.
    func requiredBoolean(_ key: String) throws(FeedError) -> Bool {
        guard members[key] != nil else { throw .missing(prefix + key) }
        return try boolean(key, default: false)
    }

    /// A clock value `"M:SS"` or `"M:SS.t"` in milliseconds; `nil` when absent and not required.
    func clock(_ key: String, required: Bool) throws(FeedError) -> Int? {
        guard let value = members[key] else {
            if required { throw .missing(prefix + key) }
            return nil
        }
        guard case .string(let text) = value, let ms = GameClock.parse(text) else {
            throw .invalid(prefix + key, "must be a clock like \"12:00\" or \"0:04.3\" (minutes 0-999, seconds 00-59)")
        }
        return ms
    }

    /// The optional `player`, 1–64 characters.
    func player() throws(FeedError) -> String? {
        guard members["player"] != nil else { return nil }
        return try string("player", length: 1...64, rule: "must be a string of 1 to 64 characters")
    }

    /// `possession`, and `down`, `distance` and `yardLine` together or not at all.
    func situation() throws(FeedError) -> Situation {
        let possession = try choice("possession", of: [Side.home, .away])
        let given = ["down", "distance", "yardLine"].filter { members[$0] != nil }
        guard given.isEmpty || given.count == 3 else {
            let missing = ["down", "distance", "yardLine"].first { members[$0] == nil }!
            throw .missing(prefix + missing)
        }
        guard !given.isEmpty else { return Situation(possession: possession, down: nil, distance: nil, yardLine: nil) }
        return Situation(
            possession: possession, down: try integer("down", in: 1...4), distance: try integer("distance", in: 1...99),
            yardLine: try integer("yardLine", in: 1...99))
    }
}
