import Foundation
import ScoreDomain

/// The teams of a Retrosheet `TEAMyyyy` file (`TEX,A,Texas,Rangers`), to give games display names.
public struct RetrosheetTeams: Sendable, Equatable {
    /// One line of the file.
    public struct Entry: Sendable, Equatable {
        /// Retrosheet code, e.g. `TEX`.
        public var code: String
        /// League, e.g. `A` or `N`.
        public var league: String
        /// City, e.g. `Texas`.
        public var city: String
        /// Nickname, e.g. `Rangers`.
        public var nickname: String

        /// Creates an entry.
        public init(code: String, league: String, city: String, nickname: String) {
            self.code = code
            self.league = league
            self.city = city
            self.nickname = nickname
        }

        /// `City Nickname`, e.g. `Texas Rangers`.
        public var displayName: String { city.isEmpty ? nickname : city + " " + nickname }
    }

    /// Entries by code.
    public var entries: [String: Entry]

    /// Creates a table from entries (the last entry of a code wins).
    public init(_ entries: [Entry] = []) {
        self.entries = [:]
        for entry in entries { self.entries[entry.code] = entry }
    }

    /// The canonical team for `code`: name `City Nickname` when known, else the code; no logo.
    public func team(code: String) -> Team {
        let name = entries[code]?.displayName ?? code
        return Team(code: code, name: name.isEmpty ? code : String(name.prefix(64)), logo: "")
    }

    /// Parses a `TEAMyyyy` file: `code,league,city,nickname` per line, LF or CRLF.
    /// - Throws: ``RetrosheetError`` (`truncated-line`) for a line with fewer than four fields.
    public static func parse(bytes: [UInt8], name: String = "TEAM") throws(RetrosheetError) -> RetrosheetTeams {
        var scanner = RecordScanner(bytes: bytes)
        var entries: [Entry] = []
        while let line = scanner.next() {
            guard line.fields.count >= 4, !line.unterminatedQuote else {
                throw RetrosheetError(
                    kind: .truncatedLine, file: name, line: line.number,
                    reason: "team line needs 4 fields (code,league,city,nickname)")
            }
            entries.append(
                Entry(
                    code: scanner.string(line.fields[0]), league: scanner.string(line.fields[1]),
                    city: scanner.string(line.fields[2]), nickname: scanner.string(line.fields[3])))
        }
        return RetrosheetTeams(entries)
    }

    /// Reads and parses the `TEAMyyyy` file at `url`.
    public static func parse(contentsOf url: URL) throws(RetrosheetError) -> RetrosheetTeams {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw RetrosheetError(
                kind: .unreadable, file: url.lastPathComponent, line: 0, reason: "cannot read the file: \(error)")
        }
        return try parse(bytes: [UInt8](data), name: url.lastPathComponent)
    }
}
