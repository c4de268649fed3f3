import Foundation
import ScoreDomain
import Testing

@Suite("ScoreState")
struct ScoreStateTests {
    struct Display: Sendable, CustomTestStringConvertible {
        var inning: Int
        var half: Half
        var text: String
        var testDescription: String { text }
    }

    @Test(
        "display inning",
        arguments: [
            Display(inning: 0, half: .top, text: "Pre-game"),
            Display(inning: 0, half: .bottom, text: "Pre-game"),
            Display(inning: 1, half: .top, text: "Top 1st"),
            Display(inning: 2, half: .bottom, text: "Bottom 2nd"),
            Display(inning: 3, half: .top, text: "Top 3rd"),
            Display(inning: 4, half: .top, text: "Top 4th"),
            Display(inning: 10, half: .bottom, text: "Bottom 10th"),
            Display(inning: 11, half: .bottom, text: "Bottom 11th"),
            Display(inning: 12, half: .top, text: "Top 12th"),
            Display(inning: 13, half: .top, text: "Top 13th"),
            Display(inning: 21, half: .top, text: "Top 21st"),
            Display(inning: 22, half: .top, text: "Top 22nd"),
            Display(inning: 23, half: .top, text: "Top 23rd"),
            Display(inning: 99, half: .bottom, text: "Bottom 99th"),
            Display(inning: 101, half: .top, text: "Top 101st"),
            Display(inning: 111, half: .top, text: "Top 111th"),
            Display(inning: 112, half: .top, text: "Top 112th"),
            Display(inning: 113, half: .bottom, text: "Bottom 113th"),
            Display(inning: 122, half: .top, text: "Top 122nd"),
        ])
    func displayInning(_ display: Display) {
        #expect(T.state(.inprogress, display.inning, display.half).inning == display.text)
    }

    static let stateJSON =
        #"{"away":{"code":"NYY","logo":"https://example.com/logos/nyy.png","name":"New York Yankees"},"awayScore":2,"#
        + #""bases":{"first":false,"second":false,"third":false},"gameId":"g1","half":"bottom","home":{"code":"BOS","logo":"https://example.com/logos/bos.png","#
        + #""name":"Boston Red Sox"},"homeScore":3,"inning":"Bottom 4th","inningNumber":4,"outs":1,"#
        + #""period":"Bottom 4th","periods":[{"away":0,"home":0,"label":"1st"},{"away":0,"home":0,"label":"2nd"},"#
        + #"{"away":0,"home":0,"label":"3rd"},{"away":0,"home":0,"label":"4th"}],"scoring":[],"sport":"baseball","#
        + #""startsAt":"2019-04-01T19:05:00Z","status":"inprogress","updatedAt":"2019-04-01T19:30:00.250Z","version":17}"#

    static let sample = T.state(
        .inprogress, 4, .bottom, outs: 1, home: 3, away: 2, version: 17, updatedAt: "2019-04-01T19:30:00.250Z")

    @Test("canonical JSON has exactly the documented keys, sorted, dates as RFC 3339")
    func canonicalJSON() {
        #expect(Self.sample.canonicalJSON() == Self.stateJSON)
    }

    @Test("Codable: JSONEncoder with sorted keys gives the same bytes, and JSONDecoder reads them back")
    func codable() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(Self.sample)
        #expect(String(decoding: data, as: UTF8.self) == Self.stateJSON)
        #expect(try JSONDecoder().decode(ScoreState.self, from: data) == Self.sample)
    }

    @Test("Codable: a date that is not RFC 3339 is a decoding error")
    func decodingBadDate() {
        let json = Self.stateJSON.replacingOccurrences(of: "2019-04-01T19:05:00Z", with: "2019-04-01")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ScoreState.self, from: Data(json.utf8)) }
    }

    struct Change: Sendable, CustomTestStringConvertible {
        var name: String
        var other: ScoreState?
        var changed: Bool
        var testDescription: String { name }
    }

    static let base = T.state(.inprogress, 4, .top, outs: 1, home: 3, away: 2)

    @Test(
        "== compares every stored field of ScoreState.fields",
        arguments: [
            Change(name: "identical", other: base, changed: false),
            Change(
                name: "version and updatedAt",
                other: T.state(
                    .inprogress, 4, .top, outs: 1, home: 3, away: 2, version: 99, updatedAt: "2020-01-01T00:00:00Z"),
                changed: true),
            Change(name: "home score", other: T.state(.inprogress, 4, .top, outs: 1, home: 4, away: 2), changed: true),
            Change(name: "away score", other: T.state(.inprogress, 4, .top, outs: 1, home: 3, away: 3), changed: true),
            Change(name: "inning", other: T.state(.inprogress, 5, .top, outs: 1, home: 3, away: 2), changed: true),
            Change(name: "half", other: T.state(.inprogress, 4, .bottom, outs: 1, home: 3, away: 2), changed: true),
            Change(name: "outs", other: T.state(.inprogress, 4, .top, outs: 2, home: 3, away: 2), changed: true),
            Change(name: "status", other: T.state(.delayed, 4, .top, outs: 1, home: 3, away: 2), changed: true),
            Change(
                name: "home team", other: T.state(.inprogress, 4, .top, outs: 1, home: 3, away: 2, homeTeam: T.tex),
                changed: true),
            Change(
                name: "away team logo",
                other: T.state(
                    .inprogress, 4, .top, outs: 1, home: 3, away: 2,
                    awayTeam: Team(code: "NYY", name: "New York Yankees", logo: "")),
                changed: true),
            Change(
                name: "start time",
                other: T.state(.inprogress, 4, .top, outs: 1, home: 3, away: 2, startsAt: "2019-04-01T20:05:00Z"),
                changed: true),
        ])
    func equality(_ change: Change) throws {
        let other = try #require(change.other)
        #expect((Self.base != other) == change.changed)
        // The JSON round trip keeps every field.
        #expect(try ScoreState(json: other.jsonValue) == other)
    }

    @Test("the field table lists every stored property of ScoreState, once")
    func fieldsOnce() throws {
        let state = Self.base
        var stored: [String] = []
        for child in Mirror(reflecting: state).children {
            guard let label = child.label else { continue }
            if label == "identity" {
                // The setup is stored as two fields: the sport and its rules.
                stored += Mirror(reflecting: child.value).children.compactMap(\.label).flatMap {
                    $0 == "setup" ? ["sport", "rules"] : [$0]
                }
            } else if label == "extras" {
                // The clock sports' values, boxed (absent in a baseball state): their fields.
                var clockSport = state
                clockSport.periodNumber = 1
                let box = Mirror(reflecting: clockSport).children.first { $0.label == "extras" }!.value
                let unwrapped = Mirror(reflecting: box).children.first!.value  // the Optional's value
                let extras = Mirror(reflecting: unwrapped).children.first { $0.label == "value" }!.value
                stored += Mirror(reflecting: extras).children.compactMap(\.label)
            } else {
                stored.append(label)
            }
        }
        let keys = ScoreState.fields.map(\.key)
        #expect(keys.sorted() == stored.sorted())
        #expect(Set(keys).count == keys.count)
        #expect(ScoreState.fields.filter { !$0.shown }.map(\.key) == ["version", "updatedAt"])
    }

    @Test("a stored state that is not a state is a clear error naming the field; bases may be absent")
    func jsonErrors() throws {
        guard case .object(var members) = Self.base.jsonValue else { throw TestFailure("not an object") }
        members["bases"] = nil
        #expect(try ScoreState(json: .object(members)).bases == .empty)
        for (key, value) in [
            ("outs", JSONValue.string("two")), ("startsAt", .string("tomorrow")), ("half", .string("middle")),
        ] {
            var broken = members
            broken[key] = value
            #expect(throws: StateFieldError.self) { try ScoreState(json: .object(broken)) }
            do {
                _ = try ScoreState(json: .object(broken))
            } catch {
                #expect(error.description.contains(key), "\(error)")
            }
        }
        members["homeScore"] = nil
        #expect(throws: StateFieldError("missing \"homeScore\"")) { try ScoreState(json: .object(members)) }
    }

    @Test("only closed, cancelled and postponed are ended")
    func isEnded() {
        #expect(GameStatus.allCases.filter(\.isEnded) == [.closed, .cancelled, .postponed])
    }
}

struct TestFailure: Error {
    let description: String
    init(_ description: String) { self.description = description }
}
