import Foundation
import ScoreDomain
import Testing

@Suite("GameClock: feed values, display, match minute, the anchor")
struct GameClockTests {
    struct Parse: Sendable, CustomTestStringConvertible {
        var text: String
        var ms: Int?
        var testDescription: String { "\"\(text)\"" }
    }

    @Test(
        "parse: M:SS or M:SS.t, minutes 0-999, seconds 00-59",
        arguments: [
            Parse(text: "12:00", ms: 720_000), Parse(text: "0:04.3", ms: 4_300), Parse(text: "93:12", ms: 5_592_000),
            Parse(text: "0:00", ms: 0), Parse(text: "0:00.0", ms: 0), Parse(text: "999:59.9", ms: 59_999_900),
            Parse(text: "007:05", ms: 425_000), Parse(text: "45:00", ms: 2_700_000),
            Parse(text: "1:60", ms: nil), Parse(text: "12", ms: nil), Parse(text: "-1:00", ms: nil),
            Parse(text: "1:5", ms: nil), Parse(text: "1:005", ms: nil), Parse(text: "1000:00", ms: nil),
            Parse(text: "1:00.", ms: nil), Parse(text: "1:00.25", ms: nil), Parse(text: ":30", ms: nil),
            Parse(text: "1:00:00", ms: nil), Parse(text: "+1:00", ms: nil), Parse(text: "", ms: nil),
            Parse(text: "1:00.a", ms: nil), Parse(text: "1:0٣", ms: nil), Parse(text: " 1:00", ms: nil),
            Parse(text: "45+2", ms: nil), Parse(text: "1.00", ms: nil),
        ])
    func parse(_ row: Parse) {
        #expect(GameClock.parse(row.text) == row.ms)
        if let ms = row.ms { #expect(GameClock.parse(GameClock.feedText(ms)) == ms) }
    }

    struct Display: Sendable, CustomTestStringConvertible {
        var ms: Int
        var countsDown: Bool
        var text: String
        var testDescription: String { "\(ms) \(countsDown ? "down" : "up") → \(text)" }
    }

    @Test(
        "display: counting down rounds up to the second, tenths under a minute; counting up truncates",
        arguments: [
            Display(ms: 720_000, countsDown: true, text: "12:00"),
            Display(ms: 719_001, countsDown: true, text: "12:00"),
            Display(ms: 719_000, countsDown: true, text: "11:59"),
            Display(ms: 272_000, countsDown: true, text: "4:32"),
            Display(ms: 271_400, countsDown: true, text: "4:32"),
            Display(ms: 272_400, countsDown: true, text: "4:33"),
            Display(ms: 60_000, countsDown: true, text: "1:00"),
            Display(ms: 59_950, countsDown: true, text: "1:00"),
            Display(ms: 59_901, countsDown: true, text: "1:00"),
            Display(ms: 59_900, countsDown: true, text: "0:59.9"),
            Display(ms: 4_300, countsDown: true, text: "0:04.3"),
            Display(ms: 4_201, countsDown: true, text: "0:04.3"),
            Display(ms: 100, countsDown: true, text: "0:00.1"),
            Display(ms: 1, countsDown: true, text: "0:00.1"),
            Display(ms: 0, countsDown: true, text: "0:00.0"),
            Display(ms: 0, countsDown: false, text: "0:00"),
            Display(ms: 4_300, countsDown: false, text: "0:04"),
            Display(ms: 2_832_999, countsDown: false, text: "47:12"),
            Display(ms: 5_592_000, countsDown: false, text: "93:12"),
            Display(ms: 7_200_000, countsDown: false, text: "120:00"),
        ])
    func display(_ row: Display) {
        #expect(GameClock.display(row.ms, countsDown: row.countsDown) == row.text)
    }

    struct Minute: Sendable, CustomTestStringConvertible {
        var clock: String
        var periodEnd: Int
        var text: String
        var testDescription: String { "\(clock) of a period ending at \(periodEnd) → \(text)" }
    }

    @Test(
        "soccer's match minute: the minute being played, stoppage time as 45+2'",
        arguments: [
            Minute(clock: "0:00", periodEnd: 45, text: "1'"), Minute(clock: "0:59.9", periodEnd: 45, text: "1'"),
            Minute(clock: "1:00", periodEnd: 45, text: "2'"), Minute(clock: "44:59.9", periodEnd: 45, text: "45'"),
            Minute(clock: "45:00", periodEnd: 45, text: "45+1'"), Minute(clock: "46:30", periodEnd: 45, text: "45+2'"),
            Minute(clock: "47:12", periodEnd: 45, text: "45+3'"), Minute(clock: "45:00", periodEnd: 90, text: "46'"),
            Minute(clock: "52:12", periodEnd: 90, text: "53'"), Minute(clock: "93:12", periodEnd: 90, text: "90+4'"),
            Minute(clock: "90:00", periodEnd: 105, text: "91'"),
            Minute(clock: "105:30", periodEnd: 105, text: "105+1'"),
            Minute(clock: "105:30", periodEnd: 120, text: "106'"),
            Minute(clock: "121:00", periodEnd: 120, text: "120+2'"),
        ])
    func matchMinute(_ row: Minute) {
        #expect(GameClock.matchMinute(ms(row.clock), periodEndMinute: row.periodEnd) == row.text)
    }

    @Test("feedText is exact to the tenth (truncating below it) and reads back")
    func feedText() {
        #expect(
            [720_000, 4_300, 4_399, 0, 59_999_900, 2_832_000, 61_000].map(GameClock.feedText) == [
                "12:00", "0:04.3", "0:04.3", "0:00", "999:59.9", "47:12", "1:01",
            ])
    }

    @Test("value(at:): a running clock moves, a countdown stops at 0, a stopped clock keeps its value")
    func value() {
        let at = T.date("2026-07-19T15:00:00Z")
        func later(_ seconds: Double) -> Date { at.addingTimeInterval(seconds) }
        let down = GameClock(at: at, ms: 720_000, running: true, countsDown: true)
        #expect(down.value(at: later(30.5)) == 689_500)
        #expect(down.value(at: later(719.9)) == 100)
        #expect(down.value(at: later(720)) == 0)
        #expect(down.value(at: later(900)) == 0)
        #expect(down.value(at: later(-5)) == 720_000)
        let up = GameClock(at: at, ms: 2_700_000, running: true, countsDown: false)
        #expect(up.value(at: later(90)) == 2_790_000)
        #expect(up.value(at: later(-1)) == 2_700_000)
        let stopped = GameClock(at: at, ms: 272_000, running: false, countsDown: true)
        #expect(stopped.value(at: later(600)) == 272_000)
    }
}
