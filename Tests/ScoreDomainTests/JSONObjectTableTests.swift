import Testing

@testable import ScoreDomain

/// ``JSONObject/table(keys:rows:)``: a table's rows as objects of one shape, as a stats.nba.com result
/// set (`headers`, `rowSet`) is read.
@Suite("JSONObject: a table's rows")
struct JSONObjectTableTests {
    @Test("rows of the headers; a header given twice keeps its first value; short and long rows")
    func rows() {
        let keys = ["GAME_ID", "TEAM_ID", "WL", "TEAM_ID"]
        let rows = JSONObject.table(
            keys: keys,
            rows: [
                [.string("001"), .int(1), .string("W"), .int(9)],
                [.string("002"), .int(2), .null, .int(9), .string("extra")],
                [.string("003")],
                [],
            ])
        #expect(rows[0] == ["GAME_ID": .string("001"), "TEAM_ID": .int(1), "WL": .string("W")])
        #expect(rows[1] == ["GAME_ID": .string("002"), "TEAM_ID": .int(2), "WL": .null])
        #expect(rows[2] == ["GAME_ID": .string("003")])
        #expect(rows[3].isEmpty)
        #expect(rows[0].keys == ["GAME_ID", "TEAM_ID", "WL"])
    }
}
