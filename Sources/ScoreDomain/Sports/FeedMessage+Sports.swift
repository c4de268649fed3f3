extension FeedMessage {
    /// The fields of a clock-sport event in the canonical form, defaults written out.
    func writeClockSportFields(to members: inout JSONObject) {
        func clock(_ ms: Int?, _ key: String = "clock") {
            if let ms { members[key] = .string(GameClock.feedText(ms)) }
        }
        func player(_ name: String?) {
            if let name { members["player"] = .string(name) }
        }
        switch event {
        case .periodStarted(let period, let kind):
            members["period"] = .int(period)
            if let kind { members["kind"] = .string(kind.rawValue) }
        case .periodEnded(let period):
            members["period"] = .int(period)
        case .clockSet(let ms):
            clock(ms)
        case .clockStarted(let ms), .clockStopped(let ms):
            clock(ms)
        case .pointsScored(let play):
            members["team"] = .string(play.team.rawValue)
            members["points"] = .int(play.points)
            members["kind"] = .string(play.kind.rawValue)
            player(play.player)
            clock(play.clockMs)
        case .shootoutAttempt(let team, let scored, let name):
            members["team"] = .string(team.rawValue)
            members["scored"] = .bool(scored)
            player(name)
        case .cardShown(let team, let card, let name, let ms):
            members["team"] = .string(team.rawValue)
            members["card"] = .string(card.rawValue)
            player(name)
            clock(ms)
        case .situationChanged(let situation, let turnover, let ms):
            members["possession"] = .string(situation.possession.rawValue)
            if let down = situation.down { members["down"] = .int(down) }
            if let distance = situation.distance { members["distance"] = .int(distance) }
            if let yardLine = situation.yardLine { members["yardLine"] = .int(yardLine) }
            members["turnover"] = .bool(turnover)
            clock(ms)
        case .retracted(let id, let reason):
            members["retracts"] = .string(id)
            if let reason { members["reason"] = .string(reason) }
        case .gameScheduled, .gameStarted, .inningChanged, .runScored, .outRecorded, .basesChanged, .scoreCorrected,
            .statusChanged, .gameEnded:
            break
        }
    }
}

extension GameRules {
    /// Every rule written out, as `game.scheduled`'s `rules` object takes them.
    public var overridesJSON: JSONValue {
        var members: JSONObject = [
            "periods": .int(periods), "periodMinutes": .int(periodMinutes),
            "overtimes": overtimes.map { .int($0) } ?? .string("unlimited"),
            "overtimeMinutes": .int(overtimeMinutes), "shootout": .bool(shootout), "tieStands": .bool(tieStands),
            "clockToleranceSeconds": .int(clockToleranceMs / 1000),
        ]
        if let firstLeg { members["firstLeg"] = .object(["home": .int(firstLeg.home), "away": .int(firstLeg.away)]) }
        return .object(members)
    }
}
