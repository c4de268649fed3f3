import APNs
import APNsSandbox
import Foundation
import ScoreFeedTesting
import Testing

extension BrowserTests {
    @Test(
        "/games/{id}/operator: the app's targets of every route behind its key, removed ones marked, a 410 answer; 390 px"
    )
    func operatorView() async throws {
        try await withLocalAPNs { sandbox, configuration in
            let apns = APNsClient(configuration: configuration, logger: quietLogger)
            let channels = APNsChannelClient(configuration: configuration, logger: quietLogger)
            let broadcasts = APNsClient(configuration: channels.configuration, logger: quietLogger)
            try await withServer(apns: apns, channels: channels, broadcasts: broadcasts) { server in
                try await Self.operatorGame(server, sandbox: sandbox)
                let browser = try await Browser(opening: server.base + "/games/g1/operator")
                do {
                    try await Self.checkOperatorPage(browser)
                } catch {
                    await browser.close()
                    throw error
                }
                await browser.close()
            }
        }
    }

    /// Game g1 of the default app with a target of each route: APNs tokens (one answered 200, one 410
    /// by the local APNs server, one removed by the app), an FCM iOS activity (no FCM here: its push
    /// waits), a push-to-start device following BOS (started), a broadcast channel, two Android
    /// followers (one unfollowed); and another app's activity of the same game.
    static func operatorGame(_ server: RunningServer, sandbox: APNsSandbox) async throws {
        let auth = ("Authorization", "Bearer \(appKey)")
        let json = ("Content-Type", "application/json")
        let token = { (byte: String) in String(repeating: byte, count: 32) }
        #expect(try await server.ingest(scheduled("g1")).status == 202)
        _ = try await server.waitForGame("g1", version: 1)
        let post = { (path: String, body: String, key: String) in
            try await server.request(.POST, path, body: body, headers: [("Authorization", "Bearer \(key)"), json])
        }
        for byte in ["aa", "bb", "ab"] {
            let body = #"{"pushToken":"\#(token(byte))","bundleId":"com.example.scores"}"#
            #expect(try await post("/v1/games/g1/activities", body, appKey).status == 201)
        }
        #expect(try await server.request(.DELETE, "/v1/activities/\(token("ab"))", headers: [auth]).status == 204)
        let fcm =
            #"{"pushToken":"\#(token("ce"))","fcmToken":"\#(fcmIOSRegistration)","bundleId":"com.example.scores"}"#
        #expect(try await post("/v1/games/g1/activities", fcm, appKey).status == 201)
        let other = #"{"pushToken":"\#(token("ef"))","bundleId":"com.other.scores"}"#
        #expect(try await post("/v1/games/g1/activities", other, otherAppKey).status == 201)
        let device = #"{"startToken":"\#(token("dd"))","follow":["BOS"],"bundleId":"com.example.scores"}"#
        #expect(try await post("/v1/devices", device, appKey).status == 201)
        let second = "fcm-android-device-0002:APA91bHsandboxAndroidRegistration0002"
        for registration in [androidRegistration, second] {
            let follow = #"{"gameId":"g1","fcmToken":"\#(registration)"}"#
            #expect(try await post("/v1/followers", follow, appKey).status == 201)
        }
        #expect(
            try await server.request(.DELETE, "/v1/followers?gameId=g1&fcmToken=\(second)", headers: [auth]).status
                == 204)
        #expect(try await server.request(.GET, "/v1/games/g1/channel", headers: [auth]).status == 200)
        await sandbox.inject(.unregistered(), count: 1, token: token("bb"))
        #expect(try await server.ingest("[\(started("g1")),\(run("g1", 1, team: "away"))]").status == 202)
        _ = try await server.waitForGame("g1", version: 3)
        // Delivered: the first token's push answered, the second's refused (410: removed), the start sent.
        for _ in 0..<200 {
            let reply = try await server.request(.GET, "/v1/games/g1/targets", headers: [auth])
            let targets = reply.object["targets"] as? [[String: Any]] ?? []
            let answers = targets.map { ($0["lastAnswer"] as? [String: Any])?["status"] as? Int ?? 0 }
            let routes = targets.map { $0["route"] as? String ?? "" }
            if answers.count == 8, answers[0] == 200, answers[1] == 410,
                answers[routes.firstIndex(of: "push-to-start") ?? 0] == 200
            {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the pushes of g1 were not answered")
    }

    static func checkOperatorPage(_ browser: Browser) async throws {
        // No key yet: the page asks for one; a key of no app is refused on the page.
        let form = "String(document.getElementById('key-form').hidden)"
        #expect(try await browser.waitFor(form, toBe: "false") == "false")
        let submit = { (key: String) in
            "(document.getElementById('key').value = '\(key)', document.getElementById('key-form').requestSubmit(), 'sent')"
        }
        _ = try await browser.waitFor(submit(ingestKey), toBe: "sent")
        let error = "document.getElementById('key-error').textContent"
        #expect(try await browser.waitFor(error, toBe: "That key is not an app key.") == "That key is not an app key.")
        _ = try await browser.waitFor(submit(appKey), toBe: "sent")
        let count = "String(document.querySelectorAll('.target').length)"
        #expect(try await browser.waitFor(count, toBe: "8") == "8")
        // Every route is there, in its group; the removed ones are marked.
        let perRoute =
            "['apns', 'channel', 'push-to-start', 'fcm', 'android'].map(r => r + ' ' + "
            + "document.querySelectorAll(`.group[data-route=\"${r}\"] .target`).length).join(', ')"
        #expect(
            try await browser.waitFor(perRoute, toBe: "apns 3, channel 1, push-to-start 1, fcm 1, android 2")
                == "apns 3, channel 1, push-to-start 1, fcm 1, android 2")
        // The removed ones: by APNs' 410 (its answer shown as failed), by the app, an unfollow.
        let removed =
            "[...document.querySelectorAll('.target.removed')].map(t => t.dataset.route + ' ' + "
            + "/^Removed: .*(Unregistered|removed by the app|unfollowed)/.exec(t.querySelector('.removed-note')"
            + ".textContent)?.[1]).join(', ')"
        let marked = "apns Unregistered, apns removed by the app, android unfollowed"
        #expect(try await browser.waitFor(removed, toBe: marked) == marked)
        let refused =
            "String(/^410 Unregistered/.test(document.querySelector('.target.removed .answer.failed')?.textContent))"
        #expect(try await browser.waitFor(refused, toBe: "true") == "true")
        let answered = "String(/^200 \\(sent\\)/.test(document.querySelector('.target .answer')?.textContent))"
        #expect(try await browser.waitFor(answered, toBe: "true") == "true")
        let budget =
            "String(/^[1-9][0-9]* \\/ 12 priority-10 pushes in the last hour$/"
            + ".test(document.querySelector('.target .budget')?.textContent))"
        #expect(try await browser.waitFor(budget, toBe: "true") == "true")
        // Another app's target is not shown; the key is in neither the address nor the page.
        let leaks = "String(document.body.textContent.includes('efefefef') || location.href.includes('\(appKey)'))"
        #expect(try await browser.waitFor(leaks, toBe: "false") == "false")
        // The same at 1280 and 390 px, nothing wider than the viewport; screenshots of the whole page.
        let folder = repositoryRoot.appendingPathComponent(".build/screenshots").path
        for (width, height, name) in [(1280, 900, "operator-desktop"), (390, 844, "operator-phone")] {
            let size = try await browser.atViewport(
                width: width, height: height, mobile: width < 500,
                measure: "document.documentElement.scrollWidth + ' ' + document.documentElement.scrollHeight"
            ) { measured in
                let tall = Double(measured.split(separator: " ").last.flatMap { Int($0) } ?? height)
                return [(folder + "/\(name).png", 0, 0, Double(width), max(Double(height), tall))]
            }
            let wide = Int(size.split(separator: " ").first ?? "") ?? .max
            #expect(wide <= width, "the operator page is \(wide) px wide at \(width)")
        }
        print("operator screenshots in \(folder)")
    }
}
