import Foundation
import Retrosheet

/// The 2019 Retrosheet data of the repository (`<root>/fixtures/retrosheet/2019`, or
/// `$SCOREFEED_RETROSHEET_DIR`), parsed once for all tests. Missing data makes the tests FAIL.
///
/// The information used here was obtained free of charge from and is copyrighted by Retrosheet.
/// Interested parties may contact Retrosheet at "www.retrosheet.org".
enum RetrosheetData {
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// One row of `expected_final_scores.csv`.
    struct FinalScore: Sendable {
        var gameId: String
        var visitorRuns: Int
        var homeRuns: Int
        var lengthOuts: Int
        var visitorLine: String
        var homeLine: String
    }

    /// One row of `expected_event_states.csv.gz` (the state before a non-NP event).
    struct EventState: Sendable {
        var gameId: String
        var inning: Int
        var battingHome: Bool
        var outs: Int
        var awayScore: Int
        var homeScore: Int
        var runners: [String]  // 1st, 2nd, 3rd; "" = empty
        var event: String
        var eventOuts: Int
        var eventId: Int
    }

    struct Corpus: Sendable {
        var files: [String: [Result<RetrosheetGame, RetrosheetError>]]
        var teams: RetrosheetTeams
        var finalScores: [FinalScore]
        var eventStates: [String: [EventState]]

        var games: [RetrosheetGame] {
            files.keys.sorted().flatMap { files[$0]!.compactMap { try? $0.get() } }
        }
    }

    /// `$SCOREFEED_RETROSHEET_DIR`, else the project's `fixtures/retrosheet/2019` (the repository root
    /// is three levels above this file).
    static var directory: URL {
        if let path = ProcessInfo.processInfo.environment["SCOREFEED_RETROSHEET_DIR"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("fixtures/retrosheet/2019", isDirectory: true).standardizedFileURL
    }

    static let eventFiles = [
        "ANA", "BAL", "BOS", "CHA", "CLE", "DET", "HOU", "KCA", "MIN", "NYA", "OAK", "SEA", "TBA", "TEX", "TOR",
    ].map { "2019\($0).EVA" }

    /// Everything, loaded once; a failure to load is rethrown by every test that asks.
    static let corpus: Result<Corpus, Error> = Result { try load() }

    private static func load() throws -> Corpus {
        let directory = directory
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("TEAM2019").path) else {
            throw Missing(description: "Retrosheet data not found in \(directory.path) (set SCOREFEED_RETROSHEET_DIR)")
        }
        var files: [String: [Result<RetrosheetGame, RetrosheetError>]] = [:]
        for name in eventFiles {
            files[name] = try RetrosheetFile.parse(contentsOf: directory.appendingPathComponent(name))
        }
        let teams = try RetrosheetTeams.parse(contentsOf: directory.appendingPathComponent("TEAM2019"))
        let finals = [UInt8](try Data(contentsOf: directory.appendingPathComponent("expected_final_scores.csv")))
        let states = try gunzip(directory.appendingPathComponent("expected_event_states.csv.gz"))
        return Corpus(files: files, teams: teams, finalScores: parseFinals(finals), eventStates: parseStates(states))
    }

    /// `/bin/gzip -dc <file>` (nothing decompressed is written to disk).
    static func gunzip(_ url: URL) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Missing(description: "gzip -dc \(url.path) failed with status \(process.terminationStatus)")
        }
        return [UInt8](data)
    }

    /// Rows of a CSV without quoted fields, by column name (split on bytes: fast in debug builds).
    private static func rows(_ bytes: [UInt8]) -> (header: [String: Int], rows: [[String]]) {
        var rows: [[String]] = []
        var row: [String] = []
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: ",") || bytes[index] == UInt8(ascii: "\n") {
            var end = index
            if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            row.append(String(decoding: bytes[start..<end], as: UTF8.self))
            start = index + 1
            if bytes[index] == UInt8(ascii: "\n") {
                rows.append(row)
                row.removeAll(keepingCapacity: true)
            }
        }
        let header = rows.removeFirst()
        return (Dictionary(uniqueKeysWithValues: header.enumerated().map { ($1, $0) }), rows)
    }

    private static func parseFinals(_ bytes: [UInt8]) -> [FinalScore] {
        let (column, rows) = rows(bytes)
        func value(_ row: [String], _ name: String) -> String { row[column[name]!] }
        return rows.map { row in
            FinalScore(
                gameId: value(row, "game_id"), visitorRuns: Int(value(row, "visitor_runs"))!,
                homeRuns: Int(value(row, "home_runs"))!, lengthOuts: Int(value(row, "length_outs"))!,
                visitorLine: value(row, "visitor_line"), homeLine: value(row, "home_line"))
        }
    }

    private static func parseStates(_ bytes: [UInt8]) -> [String: [EventState]] {
        let (column, rows) = rows(bytes)
        var states: [String: [EventState]] = [:]
        for row in rows {
            func value(_ name: String) -> String { row[column[name]!] }
            let state = EventState(
                gameId: value("GAME_ID"), inning: Int(value("INN_CT"))!, battingHome: value("BAT_HOME_ID") == "1",
                outs: Int(value("OUTS_CT"))!, awayScore: Int(value("AWAY_SCORE_CT"))!,
                homeScore: Int(value("HOME_SCORE_CT"))!,
                runners: [value("BASE1_RUN_ID"), value("BASE2_RUN_ID"), value("BASE3_RUN_ID")],
                event: value("EVENT_TX"), eventOuts: Int(value("EVENT_OUTS_CT"))!, eventId: Int(value("EVENT_ID"))!)
            states[state.gameId, default: []].append(state)
        }
        return states
    }
}
