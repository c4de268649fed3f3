import Foundation
import Retrosheet
import Testing

/// Files that break the spec: the bad game fails with file, line and reason; the others survive.
@Suite("Bad files")
struct BadFileTests {
    static let good1 = Snippet.header(id: "ANA201904040") + ["play,1,0,a,00,,S8"]
    static let good2 = Snippet.header(id: "ANA201904050") + ["play,1,0,a,00,,K"]

    /// Parses good1, a game made of `bad` lines, good2; returns the error of the middle game.
    private func middleError(_ bad: [String]) throws -> RetrosheetError {
        let results = Snippet.parse(Self.good1 + bad + Self.good2)
        #expect(results.count == 3)
        #expect((try? results[0].get())?.id == "ANA201904040")
        #expect((try? results[2].get())?.id == "ANA201904050")
        guard case .failure(let error) = results[1] else { throw Snippet.Unexpected(description: "no error") }
        #expect(error.file == "TEST.EVA")
        return error
    }

    @Test func unknownRecordType() throws {
        let error = try middleError(Snippet.header(id: "ANA201904041") + ["play,1,0,a,00,,K", "foo,bar"])
        #expect(error.kind == .unknownRecord)
        #expect(error.line == 17)
        #expect(error.gameId == "ANA201904041")
        #expect(error.description == "TEST.EVA line 17: unknown record type \"foo\" (game ANA201904041)")
    }

    @Test func impossibleAdvance() throws {
        let error = try middleError(Snippet.header(id: "ANA201904041") + ["play,1,0,a,00,,S8.2-3"])
        #expect(error.kind == .impossibleAdvance)
        #expect(error.line == 16)
        #expect(error.reason == "\"S8.2-3\" moves a runner from 2nd, which is empty")
    }

    @Test func truncatedLines() throws {
        let short = try middleError(Snippet.header(id: "ANA201904041") + ["play,1,0,a,00"])
        #expect(short.kind == .truncatedLine)
        #expect(short.line == 16)
        #expect(short.reason == "play record has 5 fields, needs 7")
        let quote = try middleError(Snippet.header(id: "ANA201904041") + ["com,\"cut off here"])
        #expect(quote.kind == .truncatedLine)
        #expect(quote.line == 16)
    }

    @Test func truncatedAtTheEndOfTheFile() throws {
        var bytes = Snippet.file(Self.good1)
        bytes += Array("id,ANA201904041\ninfo,visteam,TEX\nplay,1,0,ab".utf8)  // no final newline
        let results = RetrosheetFile.parse(bytes: bytes, name: "CUT.EVA")
        #expect(results.count == 2)
        guard case .failure(let error) = results[1] else { return #expect(Bool(false)) }
        #expect(error.kind == .truncatedLine)
        #expect(error.description == "CUT.EVA line 11: play record has 4 fields, needs 7 (game ANA201904041)")
    }

    @Test func invalidValues() throws {
        #expect(try middleError(Snippet.header(id: "ANA201904041") + ["play,0,0,a,00,,K"]).kind == .invalidValue)
        #expect(try middleError(Snippet.header(id: "ANA201904041") + ["play,1,2,a,00,,K"]).kind == .invalidValue)
        let badId = try middleError(Snippet.header(id: "ANA 2019/04/04"))
        #expect(badId.kind == .invalidValue && badId.line == 9)
        let noTeam = try middleError(["id,ANA201904041", "info,visteam,TEX", "play,1,0,a,00,,K"])
        #expect(noTeam.kind == .invalidValue && noTeam.reason.contains("hometeam"))
    }

    @Test func recordsBeforeTheFirstId() throws {
        let results = Snippet.parse(["version,2", "info,visteam,TEX"] + Self.good1)
        #expect(results.count == 2)
        guard case .failure(let error) = results[0] else { return #expect(Bool(false)) }
        #expect(error.line == 1)
        #expect((try? results[1].get())?.plays.count == 1)
    }

    @Test func unreadableFile() {
        #expect(throws: RetrosheetError.self) {
            try RetrosheetFile.parse(contentsOf: URL(fileURLWithPath: "/nonexistent/2019XXX.EVA"))
        }
    }
}
