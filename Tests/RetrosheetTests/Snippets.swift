import Retrosheet

/// Builders for small hand-written event files.
enum Snippet {
    /// The records that open a game: `id`, `version` and the `info` records (visitors TEX at home ANA
    /// on 2019/04/04, 7:07PM), plus `extra` info lines.
    static func header(id: String = "ANA201904040", extra: [String] = []) -> [String] {
        [
            "id,\(id)", "version,2", "info,visteam,TEX", "info,hometeam,ANA", "info,date,2019/04/04",
            "info,number,0", "info,starttime,7:07PM",
        ] + extra
    }

    /// A file of `lines` joined with `ending`.
    static func file(_ lines: [String], ending: String = "\n") -> [UInt8] {
        Array((lines.joined(separator: ending) + ending).utf8)
    }

    /// Parses `lines` as one file named `TEST.EVA`.
    static func parse(_ lines: [String], ending: String = "\n") -> [Result<RetrosheetGame, RetrosheetError>] {
        RetrosheetFile.parse(bytes: file(lines, ending: ending), name: "TEST.EVA")
    }

    /// The single game of `lines`; fails the test on an error.
    static func game(_ lines: [String]) throws -> RetrosheetGame {
        let results = parse(lines)
        guard results.count == 1 else { throw Unexpected(description: "\(results.count) games") }
        return try results[0].get()
    }

    /// The error of the single (failing) game of `lines`.
    static func error(_ lines: [String]) throws -> RetrosheetError {
        let results = parse(lines)
        guard results.count == 1, case .failure(let error) = results[0] else {
            throw Unexpected(description: "expected one failing game, got \(results)")
        }
        return error
    }

    /// Plays `event` (batter `bat`) in the top of the 1st after `outs` strikeouts, with runners `r1`,
    /// `r2`, `r3` placed on the bases listed in `runners` (via `radj`), and returns that play.
    static func play(_ event: String, runners: [Int] = [], outs: Int = 0) throws -> RetrosheetPlay {
        var lines = header() + ["play,1,0,lead,00,,NP"]
        lines += (0..<outs).map { "play,1,0,k\($0),00,,K" }
        lines += runners.map { "radj,r\($0),\($0)" }
        lines.append("play,1,0,bat,00,,\(event)")
        return try game(lines).plays.last!
    }

    struct Unexpected: Error, CustomStringConvertible {
        var description: String
    }
}

extension RetrosheetState {
    /// The bases as `"bat r1 -"` (1st, 2nd, 3rd; `-` = empty).
    var diagram: String {
        [first, second, third].map { $0 ?? "-" }.joined(separator: " ")
    }
}
