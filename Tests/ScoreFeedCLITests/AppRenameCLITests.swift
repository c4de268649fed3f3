import Foundation
import ScoreFeedTesting
import Testing

@Suite("scorefeed app rename: an app's registrations move to its new name")
struct AppRenameCLITests {
    let add = ["activity", "add", "g1", "--bundle-id", "com.example.scores", "--allow-unknown-game"]

    func tokens(_ cli: CLI, app: String) async throws -> [String] {
        let listed = try await cli.run("activity", "list", "--json", "--app", app)
        let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        return rows.compactMap { $0["pushToken"] as? String }.sorted()
    }

    @Test(
        "default -> ios moves every registration; a bad name, an unknown app or a taken name is refused, nothing moved")
    func rename() async throws {
        try await TestDatabase.withSchema { url in
            let cli = CLI(databaseURL: url)
            let before = String(repeating: "b1", count: 32)
            let added = try await cli.run(add + [before])
            #expect(added.status == 0, "\(added.stderr)")
            let bad = try await cli.run("app", "rename", "default", "Bad_Name")
            #expect(bad.status != 0 && bad.stderr.contains("\"Bad_Name\" is not an app name"), "\(bad.stderr)")
            let nobody = try await cli.run("app", "rename", "nobody", "ios")
            #expect(nobody.status != 0 && nobody.stderr.contains("app \"nobody\" owns no"), "\(nobody.stderr)")
            #expect(try await tokens(cli, app: "default") == [before])
            let renamed = try await cli.run("app", "rename", "default", "ios")
            #expect(renamed.status == 0, "\(renamed.stderr)")
            #expect(renamed.stdout.contains("1 activities and followers, 0 devices, 0 channels"), "\(renamed.stdout)")
            #expect(try await tokens(cli, app: "ios") == [before])
            #expect(try await tokens(cli, app: "default").isEmpty)
            // Into an app that owns registrations already: only with --merge.
            let other = String(repeating: "c1", count: 32)
            #expect(try await cli.run(add + [other, "--app", "tv"]).status == 0)
            let taken = try await cli.run("app", "rename", "ios", "tv")
            #expect(taken.status != 0 && taken.stderr.contains("already owns registrations"), "\(taken.stderr)")
            #expect(try await tokens(cli, app: "ios") == [before])
            let merged = try await cli.run("app", "rename", "ios", "tv", "--merge")
            #expect(merged.status == 0, "\(merged.stderr)")
            #expect(try await tokens(cli, app: "tv") == [before, other].sorted())
        }
    }
}
