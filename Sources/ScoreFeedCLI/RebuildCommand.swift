import ArgumentParser
import Foundation
import ScoreStore

/// `scorefeed rebuild`: fold the whole log into the projections again.
struct RebuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Rebuild every projection (score_states) from the event log, in one transaction.",
        discussion: """
            Readers see the old rows until the new ones commit. Live Activity commands already planned \
            are kept as they are: a rebuild never plans or sends a push again.
            """
    )

    func run() async throws {
        let connection = try await Runtime.openDatabase()
        let started = ContinuousClock.now
        let events = try await Projector().rebuild(connection)
        let games = try await connection.query("SELECT count(*) AS n FROM score_states")[0].int("n")
        await connection.close()
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        Output.line(
            "rebuilt score_states: \(games) game(s) from \(events) event(s) in \(String(format: "%.2f", seconds)) s")
    }
}
