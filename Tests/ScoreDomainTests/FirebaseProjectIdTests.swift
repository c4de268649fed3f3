import ScoreDomain
import Testing

@Suite("Firebase project ids: one rule for app settings, service accounts and the sandbox")
struct FirebaseProjectIdTests {
    @Test(arguments: [
        "scores-android", "scorefeed-sandbox", "a12345", "example.com:scores-1", String(repeating: "a", count: 30),
    ])
    func valid(_ id: String) {
        #expect(FirebaseProjectId.isValid(id))
    }

    @Test(arguments: [
        "", "short", "Bad_Project", "1scores", "scores-", "my/project", ":scores", "Example.com:scores",
        "example.com:", String(repeating: "a", count: 31),
    ])
    func invalid(_ id: String) {
        #expect(!FirebaseProjectId.isValid(id))
    }
}
