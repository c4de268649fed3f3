import ScoreDomain

/// The clock sports' games: the event mixes a provider sends (see docs/performance.md, "Every sport").
extension SportSeasons {
    /// Periods while the rules and the score say so: regulation, then overtime only when tied.
    /// `play` plays one period and returns false when it ended the game (sudden death).
    static func periods(
        _ game: inout GameWriter, rules: GameRules, sport: Sport,
        play: (inout GameWriter, _ period: Int, _ kind: PeriodKind) throws -> Bool
    ) throws {
        game.countsDown = sport.clockCountsDown
        var period = 1
        while let kind = rules.kind(ofPeriod: period, sport: sport) {
            if period > rules.periods && (!game.tied || kind == .shootout) { break }
            if period > 1 {
                let halfTime = kind == .regulation && period == rules.periods / 2 + 1
                game.advance(game.random.seconds(halfTime ? 900...960 : 120...240))
                try game.beginPeriod(period, kind: kind, rules: rules, sport: sport)
            } else {
                game.clockMs = rules.clockStart(ofPeriod: 1, sport: sport) ?? 0
            }
            guard try play(&game, period, kind) else { return }
            period += 1
        }
        if game.tied && rules.shootout, let kind = rules.kind(ofPeriod: period, sport: sport), kind == .shootout {
            game.advance(game.random.seconds(120...240))
            try game.beginPeriod(period, kind: .shootout, rules: rules, sport: sport)
            try shootout(&game)
            try game.endPeriod(period)
        }
    }

    /// Rounds of one attempt a side (away first) until a side leads after a round, three rounds at least.
    private static func shootout(_ game: inout GameWriter) throws {
        var tally = SideTally()
        var round = 0
        while round < 3 || tally.home == tally.away {
            for team in [Side.away, .home] {
                game.advance(game.random.seconds(40...90))
                let scored = game.random.chance(0.32)
                if scored { tally[team] += 1 }
                try game.emit(.shootoutAttempt(team: team, scored: scored, player: game.player(team)))
            }
            round += 1
        }
    }

    /// NBA: about 190 scoring plays (field goals while the clock runs; free throws after the clock
    /// stops) and 77 clock stops a game; the clock stops after a made basket in the last two minutes.
    static func basketball(_ game: inout GameWriter, rules: GameRules) throws {
        try game.emit(.periodStarted(period: 1, kind: .regulation))
        try periods(&game, rules: rules, sport: .basketball) { game, period, _ in
            game.advance(game.random.seconds(10...30))
            try game.startClock()
            while true {
                if game.run(Int.random(in: 50...250, using: &game.random) * 100) { break }
                if game.random.chance(0.62) {
                    let team = game.side()
                    try game.score(team, game.random.chance(0.27) ? .three : .two, player: game.player(team))
                    if period >= rules.periods && game.clockMs < 120_000 {
                        try game.stopClock()
                        game.advance(game.random.seconds(10...40))
                        try game.startClock()
                    }
                    continue
                }
                try game.stopClock()
                game.advance(game.random.seconds(15...90))
                if game.random.chance(0.6) {
                    let team = game.side(home: 0.5)
                    let shooter = game.player(team)
                    for _ in 0..<(game.random.chance(0.1) ? 3 : 2) {
                        game.advance(game.random.seconds(10...25))
                        if game.random.chance(0.78) { try game.score(team, .freeThrow, player: shooter) }
                    }
                }
                game.advance(game.random.seconds(3...10))
                try game.startClock()
            }
            try game.endPeriod(period)
            return true
        }
    }

    /// NHL: about 6 goals and 75 whistles a game (the clock stops at each, and after a goal); an
    /// overtime goal ends the game; still tied, a shoot-out.
    static func hockey(_ game: inout GameWriter, rules: GameRules) throws {
        try periods(&game, rules: rules, sport: .hockey) { game, period, kind in
            game.advance(game.random.seconds(20...60))
            try game.startClock()
            while true {
                if game.run(game.random.seconds(15...75)) { break }
                if game.random.chance(0.075) {
                    let team = game.side()
                    try game.score(team, .goal, player: game.player(team))
                    if kind == .overtime {
                        try game.endPeriod(period)
                        return false
                    }
                }
                try game.stopClock()
                game.advance(game.random.seconds(20...70))
                try game.startClock()
            }
            try game.endPeriod(period)
            return true
        }
    }

    /// League soccer: the provider's clock every 30 seconds of play (`clock.set`), about 2.7 goals
    /// (penalties and own goals among them; one in 25 disallowed by VAR), 4 yellow cards, the halves'
    /// added time.
    static func soccer(_ game: inout GameWriter, rules: GameRules) throws {
        try periods(&game, rules: rules, sport: .soccer) { game, period, _ in
            game.advance(game.random.seconds(5...20))
            try game.startClock()
            let end = (rules.periodMinutes * period + game.random.int(1...(period == 1 ? 3 : 6))) * 60_000
            var lastGoal: String?
            while game.clockMs < end {
                game.advance(30_000)
                try game.emit(.clockSet(ms: game.clockMs))
                if game.random.chance(2.7 / 190) {
                    let team = game.side(home: 0.55)
                    let roll = Double.random(in: 0..<1, using: &game.random)
                    let kind: ScoringKind = roll < 0.88 ? .goal : roll < 0.96 ? .penalty : .ownGoal
                    game.advance(game.random.seconds(1...20))
                    lastGoal = try game.score(team, kind, player: game.player(kind == .ownGoal ? team.other : team))
                } else if let goal = lastGoal, game.random.chance(0.04) {
                    try game.emit(.retracted(id: goal, reason: "VAR: offside"))
                    lastGoal = nil
                } else if game.random.chance(4.2 / 190) {
                    let team = game.side(home: 0.45)
                    let card: Card = game.random.chance(0.04) ? .red : .yellow
                    game.advance(game.random.seconds(1...20))
                    try game.emit(.cardShown(team: team, card: card, player: game.player(team), clockMs: game.clockMs))
                } else {
                    lastGoal = nil
                }
            }
            try game.endPeriod(period)
            return true
        }
    }
}

extension Side {
    var other: Side { self == .home ? .away : .home }
}
