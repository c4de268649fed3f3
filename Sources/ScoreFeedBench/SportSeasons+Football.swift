import ScoreDomain

extension SportSeasons {
    /// NFL: drives of plays with a `situation.changed` after every play (possession, down, distance,
    /// field position, the clock); the clock stops after an incomplete pass, a play out of bounds, a
    /// score and a change of possession, and runs again at the next snap. Touchdowns with their extra
    /// point or two-point try, field goals on fourth down in range, punts, turnovers, rarely a safety.
    /// An overtime score ends the game; still tied, the tie stands.
    static func football(_ game: inout GameWriter, rules: GameRules) throws {
        try game.emit(.periodStarted(period: 1, kind: .regulation))
        var drive = Situation(possession: .away, down: 1, distance: 10, yardLine: 25)
        try periods(&game, rules: rules, sport: .football) { game, period, kind in
            if period == rules.periods / 2 + 1 { drive = kickoff(to: .home) }
            if kind == .overtime { drive = kickoff(to: game.side(home: 0.5)) }
            game.advance(game.random.seconds(20...60))
            try game.emit(.situationChanged(drive, turnover: false, clockMs: game.clockMs))
            while true {
                if !game.running { try game.startClock() }
                let ended = game.run(game.random.seconds(4...8))
                let (next, turnover, stop, scored) = try play(drive, &game)
                drive = next
                try game.emit(.situationChanged(drive, turnover: turnover, clockMs: game.clockMs))
                if scored && kind == .overtime {
                    try game.endPeriod(period)
                    return false
                }
                if ended || game.clockMs == 0 { break }
                if stop {
                    try game.stopClock()
                    game.advance(game.random.seconds(25...45))
                } else if game.run(game.random.seconds(25...38)) {
                    break
                }
            }
            try game.endPeriod(period)
            return true
        }
    }

    /// A new drive from the receiving side's 25.
    private static func kickoff(to team: Side) -> Situation {
        Situation(possession: team, down: 1, distance: 10, yardLine: 25)
    }

    /// One snap: the situation after it, whether the ball changed hands by a turnover, whether the
    /// clock stops and whether anybody scored (the scores are emitted here).
    private static func play(
        _ drive: Situation, _ game: inout GameWriter
    ) throws -> (Situation, turnover: Bool, stop: Bool, scored: Bool) {
        let team = drive.possession
        let (down, distance, yardLine) = (drive.down ?? 1, drive.distance ?? 10, drive.yardLine ?? 25)
        if down == 4 && !(distance <= 2 && yardLine >= 45 && game.random.chance(0.5)) {
            if yardLine >= 62 {
                let made = game.random.chance(yardLine >= 80 ? 0.95 : 0.8)
                if made { try game.score(team, .fieldGoal, player: game.player(team)) }
                let next =
                    made
                    ? kickoff(to: team.other)
                    : Situation(
                        possession: team.other, down: 1, distance: 10, yardLine: 100 - yardLine)
                return (next, false, true, made)
            }
            let spot = max(5, min(45, 100 - yardLine - game.random.int(35...50)))
            return (Situation(possession: team.other, down: 1, distance: 10, yardLine: spot), false, true, false)
        }
        var gain: Int
        var stop: Bool
        if game.random.chance(0.55) {
            let complete = game.random.chance(0.64)
            gain = complete ? game.random.int(0...18) + (game.random.chance(0.06) ? game.random.int(15...50) : 0) : 0
            stop = !complete || game.random.chance(0.15)
        } else {
            gain = game.random.int(-3...9) + (game.random.chance(0.03) ? game.random.int(10...50) : 0)
            stop = game.random.chance(0.05)
        }
        if game.random.chance(0.022) {
            let spot = max(1, min(99, 100 - (yardLine + gain)))
            return (
                Situation(possession: team.other, down: 1, distance: min(10, 100 - spot), yardLine: spot), true, true,
                false
            )
        }
        let spot = yardLine + gain
        if spot >= 100 {
            try game.score(team, .touchdown, player: game.player(team))
            if game.random.chance(0.08) {
                if game.random.chance(0.48) { try game.score(team, .twoPointConversion, player: game.player(team)) }
            } else if game.random.chance(0.94) {
                try game.score(team, .extraPoint, player: game.player(team))
            }
            return (kickoff(to: team.other), false, true, true)
        }
        if spot <= 0 {
            try game.score(team.other, .safety)
            return (Situation(possession: team.other, down: 1, distance: 10, yardLine: 35), false, true, true)
        }
        if gain >= distance {
            return (
                Situation(possession: team, down: 1, distance: min(10, 100 - spot), yardLine: spot), false, stop, false
            )
        }
        if down == 4 {
            let turnedOver = Situation(possession: team.other, down: 1, distance: min(10, spot), yardLine: 100 - spot)
            return (turnedOver, false, true, false)
        }
        let next = Situation(possession: team, down: down + 1, distance: min(99, distance - gain), yardLine: spot)
        return (next, false, stop, false)
    }
}
