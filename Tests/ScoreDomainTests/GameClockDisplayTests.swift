import ScoreDomain
import Testing

/// `GameClock.display` writes its text byte by byte (it runs for every scoring play): it must say
/// exactly what the plain formula says, for every tenth of two hours either way.
@Suite("the clock's display, byte by byte, equals the plain formula")
struct GameClockDisplayTests {
    static func plain(_ ms: Int, countsDown: Bool) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        if countsDown && (ms + 99) / 100 < 600 {
            let tenths = (ms + 99) / 100
            return "0:" + two(tenths / 10) + "." + String(tenths % 10)
        }
        let seconds = countsDown ? (ms + 999) / 1000 : ms / 1000
        return String(seconds / 60) + ":" + two(seconds % 60)
    }

    @Test(arguments: [true, false])
    func everyValue(_ countsDown: Bool) {
        var mismatches: [Int] = []
        for ms in stride(from: 0, through: 7_200_000, by: 50)
        where GameClock.display(ms, countsDown: countsDown)
            != Self.plain(ms, countsDown: countsDown)
        {
            mismatches.append(ms)
        }
        #expect(mismatches.isEmpty, "first: \(mismatches.prefix(5))")
        #expect(GameClock.display(59_999_900, countsDown: false) == "999:59")
    }
}
