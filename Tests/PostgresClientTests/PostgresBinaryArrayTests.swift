import Foundation
import PostgresClient
import ScoreFeedTesting
import Testing

@Suite("binary array parameters against a real server")
struct PostgresBinaryArrayTests {
    @Test("text[]: NULL, empty, quotes, backslashes, braces, commas and unicode arrive as sent, in order")
    func text() async throws {
        let values: [String?] = ["plain", nil, "", #"{"a","b"}"#, "back\\slash, comma", "Zürich ⚾️ 東京", "NULL"]
        let rows = try await select(
            "SELECT v, v IS NULL AS n, i FROM unnest($1::text[]) WITH ORDINALITY AS u(v, i) ORDER BY i",
            [PostgresBinaryArray.text(values)])
        #expect(try rows.rows.map { try $0.text("v") } == values)
        #expect(try rows.rows.map { try $0.bool("n") } == values.map { $0 == nil })
    }

    @Test("an empty array is an empty array, not NULL")
    func empty() async throws {
        let rows = try await select(
            "SELECT cardinality($1::text[]) AS c, $1::text[] IS NULL AS n", [PostgresBinaryArray.text([String]())])
        #expect(try rows[0].int("c") == 0)
        #expect(try rows[0].bool("n") == false)
    }

    @Test("bigint[] keeps the sign and the full range")
    func bigint() async throws {
        let values = [0, 1, -1, Int.max, Int.min, 1_775_000_000]
        let rows = try await select(
            "SELECT v::text AS v FROM unnest($1::bigint[]) WITH ORDINALITY AS u(v, i) ORDER BY i",
            [PostgresBinaryArray.bigint(values)])
        #expect(try rows.rows.map { try $0.string("v") } == values.map(String.init))
    }

    @Test("timestamptz[] to the microsecond, before and after PostgreSQL's epoch of 2000")
    func timestamptz() async throws {
        let seconds = [0.0, 1_554_145_500.123456, -86_400.5, 946_684_799.999999, 946_684_800, 4_102_444_800.000001]
        let rows = try await select(
            "SELECT v FROM unnest($1::timestamptz[]) WITH ORDINALITY AS u(v, i) ORDER BY i",
            [PostgresBinaryArray.timestamptz(seconds.map { Date(timeIntervalSince1970: $0) })])
        let back = try rows.rows.map { try $0.date("v").timeIntervalSince1970 }
        #expect(zip(back, seconds).allSatisfy { abs($0 - $1) < 0.000_001 })
        #expect(back.count == seconds.count)
    }

    @Test("jsonb[] is parsed by the server as jsonb input")
    func jsonb() async throws {
        let rows = try await select(
            "SELECT v::text AS v, v->>'team' AS team FROM unnest($1::jsonb[]) WITH ORDINALITY AS u(v, i) ORDER BY i",
            [PostgresBinaryArray.jsonb([#"{"team": "home", "runs": 1}"#, #"{"team":"a\"b"}"#])])
        #expect(try rows.rows.map { try $0.string("v") } == [#"{"runs": 1, "team": "home"}"#, #"{"team": "a\"b"}"#])
        #expect(try rows.rows.map { try $0.string("team") } == ["home", #"a"b"#])
    }

    @Test("binary and text parameters mix in one statement")
    func mixed() async throws {
        let rows = try await select(
            "SELECT $1::text AS a, cardinality($2::text[]) AS c, $3::bigint AS b",
            ["text", PostgresBinaryArray.text(["x", "y"]), 7])
        #expect(try rows[0].string("a") == "text")
        #expect(try rows[0].int("c") == 2)
        #expect(try rows[0].int("b") == 7)
    }

    private func select(_ sql: String, _ parameters: [any PostgresEncodable]) async throws -> PostgresResult {
        try await TestDatabase.withSchema { url in
            let connection = try await PostgresConnection.connect(url)
            let result = try await connection.query(sql, parameters)
            await connection.close()
            return result
        }
    }
}
