import Foundation

/// A one-line progress bar on stderr, drawn only when stderr is a terminal, at most ten times a second.
final class ProgressBar {
    private let totalGames: Int
    private let enabled: Bool
    private let started = ContinuousClock.now
    private var lastDraw = ContinuousClock.now - .seconds(1)

    init(totalGames: Int, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.totalGames = totalGames
        self.enabled = enabled
    }

    /// Redraws the bar with the counts so far (throttled).
    func update(games: Int, events: Int) {
        guard enabled, ContinuousClock.now - lastDraw >= .milliseconds(100) || games == totalGames else { return }
        lastDraw = ContinuousClock.now
        FileHandle.standardError.write(Data(("\r" + line(games: games, events: events) + "\u{1B}[K").utf8))
    }

    /// Clears the bar so the summary starts on a clean line.
    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    func line(games: Int, events: Int) -> String {
        let elapsed = max((ContinuousClock.now - started) / .seconds(1), 0.001)
        let fraction = totalGames == 0 ? 1 : Double(games) / Double(totalGames)
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let rate = Double(events) / elapsed
        let left = fraction > 0 ? elapsed / fraction - elapsed : 0
        return "[\(bar)] \(games)/\(totalGames) games  \(events) events  \(Int(rate)) events/s  "
            + "\(Self.clock(left)) left"
    }

    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        return String(format: "%d:%02d", total / 60, total % 60)
    }
}
