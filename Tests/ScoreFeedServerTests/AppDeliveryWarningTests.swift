import ScoreFeedServer
import Testing

@Suite("what the apps' settings ask that delivery cannot give")
struct AppDeliveryWarningTests {
    let keys = AppKeys(apps: [
        AppSettings(name: "ios", keys: ["ios-key-0123456789abcdef"], bundleIds: ["com.example.scores"]),
        AppSettings(
            name: "beta", keys: ["beta-key-0123456789abcdef"], bundleIds: ["com.example.beta"],
            firebaseProject: "beta-project"),
        AppSettings(name: "default", keys: ["default-key-0123456789ab"]),
    ])

    @Test("an app whose bundle ids miss the APNs bundle id, or whose Firebase project is another, is named")
    func warnings() {
        let warnings = keys.deliveryWarnings(apnsBundleId: "com.example.scores", fcmProject: "main-project")
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.allSatisfy { $0.hasPrefix("app beta: ") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("SENDER_ID_MISMATCH") })
        #expect(warnings.contains { $0.contains("broadcast channels are created under com.example.scores") })
    }

    @Test("nothing to say when the settings agree, or delivery is off")
    func quiet() {
        #expect(keys.deliveryWarnings(apnsBundleId: nil, fcmProject: nil).isEmpty)
        let agreeing = AppKeys(apps: [
            AppSettings(
                name: "ios", keys: ["ios-key-0123456789abcdef"], bundleIds: ["com.example.scores"],
                firebaseProject: "main-project")
        ])
        #expect(agreeing.deliveryWarnings(apnsBundleId: "com.example.scores", fcmProject: "main-project").isEmpty)
    }
}
