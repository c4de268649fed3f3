import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import ScoreFeedTesting
import Testing

@Suite("POST /v1/feed")
struct IngestTests {
    @Test("202 for one object, an array, and NDJSON; a repeat counts as duplicates")
    func accepted() async throws {
        try await withServer { server in
            let one = try await server.ingest(scheduled("g1"))
            #expect(one.status == 202, "\(one.body)")
            #expect(one.object["accepted"] as? Int == 1)
            let array = try await server.ingest("[\(started("g1")),\(run("g1", 1))]")
            #expect(array.status == 202, "\(array.body)")
            #expect(array.object["accepted"] as? Int == 2)
            let ndjson = try await server.ingest(
                "\(run("g1", 1))\n\n\(run("g1", 2))\r\n", type: "application/x-ndjson; charset=utf-8")
            #expect(ndjson.status == 202, "\(ndjson.body)")
            #expect(ndjson.object["accepted"] as? Int == 1)
            #expect(ndjson.object["duplicates"] as? Int == 1)
            let game = try await server.waitForGame("g1", version: 4)
            #expect(game["homeScore"] as? Int == 2)
        }
    }

    @Test("400 names every bad message by index and field, and stores nothing of the request")
    func invalid() async throws {
        try await withServer { server in
            let body = "[\(scheduled("g1")), {\"id\":\"x\",\"gameId\":\"g1\"}, \(run("g1", 1, team: "nobody"))]"
            let reply = try await server.ingest(body)
            #expect(reply.status == 400)
            #expect(reply.errorCode == "invalid-messages")
            let details = (reply.object["error"] as? [String: Any])?["details"] as? [[String: Any]] ?? []
            #expect(details.map { $0["index"] as? Int } == [1, 2])
            #expect(details.map { $0["field"] as? String } == ["at", "team"])
            let ndjson = try await server.ingest("\(scheduled("g1"))\nnot json\n", type: "application/x-ndjson")
            #expect(ndjson.status == 400)
            let lines = (ndjson.object["error"] as? [String: Any])?["details"] as? [[String: Any]] ?? []
            #expect(lines.first?["line"] as? Int == 2)
            #expect(lines.first?["code"] as? String == "invalid-json")
            for broken in ["{", "42", "[]"] {
                let reply = try await server.ingest(broken)
                #expect(reply.status == 400, "\(broken): \(reply.body)")
                #expect(reply.errorCode != nil)
            }
            #expect(try await server.request(.GET, "/v1/games/g1").status == 404)
        }
    }

    @Test("401 without credentials, 403 with wrong ones; a valid HMAC signature is accepted")
    func credentials() async throws {
        try await withServer { server in
            let body = scheduled("g1")
            let json = ("Content-Type", "application/json")
            let none = try await server.request(.POST, "/v1/feed", body: body, headers: [json])
            #expect(none.status == 401)
            #expect(none.headers.first(name: "WWW-Authenticate") == "Bearer")
            let wrongKey = try await server.request(
                .POST, "/v1/feed", body: body, headers: [json, ("Authorization", "Bearer not-a-key-000000000000")])
            #expect(wrongKey.status == 403)
            let basic = try await server.request(
                .POST, "/v1/feed", body: body, headers: [json, ("Authorization", "Basic dXNlcjpwYXNz")])
            #expect(basic.status == 401)
            let now = Int(Date().timeIntervalSince1970)
            let badSignature = try await server.request(
                .POST, "/v1/feed", body: body,
                headers: [
                    json, ("X-ScoreFeed-Timestamp", "\(now)"),
                    ("X-ScoreFeed-Signature", "sha256=" + String(repeating: "0", count: 64)),
                ])
            #expect(badSignature.status == 403)
            let malformed = try await server.request(
                .POST, "/v1/feed", body: body,
                headers: [json, ("X-ScoreFeed-Timestamp", "\(now)"), ("X-ScoreFeed-Signature", "md5=abc")])
            #expect(malformed.status == 403)
            // Signed for another body, or for another timestamp than the one sent: refused.
            let other = try await server.request(.POST, "/v1/feed", body: body, headers: [json] + sign(body + " "))
            #expect(other.status == 403)
            let moved = try await server.request(
                .POST, "/v1/feed", body: body,
                headers: [json, ("X-ScoreFeed-Timestamp", "\(now - 1)"), sign(body, at: now)[1]])
            #expect(moved.status == 403)
            #expect(try await server.request(.GET, "/v1/games/g1").status == 404)
            let signed = try await server.request(.POST, "/v1/feed", body: body, headers: [json] + sign(body))
            #expect(signed.status == 202, "\(signed.body)")
            let secondKey = try await server.request(
                .POST, "/v1/feed", body: started("g1"),
                headers: [json, ("Authorization", "Bearer second-ingest-key-000001")])
            #expect(secondKey.status == 202, "\(secondKey.body)")
        }
    }

    @Test("401 for a signed request without a timestamp or outside the window, however well signed")
    func expiredSignatures() async throws {
        try await withServer { server in
            let body = scheduled("g1")
            let json = ("Content-Type", "application/json")
            let now = Int(Date().timeIntervalSince1970)
            // 30 s beyond the 300 s window: a loaded run (CI) may answer seconds after `now`, which
            // brought a future stamp of now + 301 back inside the window.
            for at in [now - 330, now + 330, now - 86_400] {
                let reply = try await server.request(
                    .POST, "/v1/feed", body: body, headers: [json] + sign(body, at: at))
                #expect(reply.status == 401, "\(at - now): \(reply.body)")
                #expect(reply.errorCode == "signature-expired")
            }
            let unsigned = try await server.request(
                .POST, "/v1/feed", body: body, headers: [json, sign(body)[1]])
            #expect(unsigned.status == 401)
            #expect(unsigned.body.contains("X-ScoreFeed-Timestamp"))
            for bad in ["", "12.5", "-5", "1e9", "99999999999999999999"] {
                let reply = try await server.request(
                    .POST, "/v1/feed", body: body, headers: [json, ("X-ScoreFeed-Timestamp", bad), sign(body)[1]])
                #expect(reply.status == 401, "\(bad): \(reply.body)")
            }
            #expect(try await server.request(.GET, "/v1/games/g1").status == 404)
            let inWindow = try await server.request(
                .POST, "/v1/feed", body: body, headers: [json] + sign(body, at: now - 200))
            #expect(inWindow.status == 202, "\(inWindow.body)")
        }
    }

    @Test("a 400 lists at most 20 problems and counts the rest, however many bad lines the body has")
    func boundedProblems() async throws {
        try await withServer { server in
            let lines = String(repeating: "1\n", count: 500_000)  // 1 MB of bad messages, the worst case
            let reply = try await server.ingest(lines, type: "application/x-ndjson")
            #expect(reply.status == 400)
            let error = reply.object["error"] as? [String: Any]
            let details = error?["details"] as? [[String: Any]] ?? []
            #expect(details.count == 20)
            #expect(details.last?["line"] as? Int == 20)
            #expect(error?["moreDetails"] as? Int == 499_980)
            #expect(reply.body.utf8.count < 8_192)
            // A long value echoed in a reason is clipped too.
            let longId = String(repeating: "x", count: 100_000)
            let array = "[" + Array(repeating: #"{"id":"\#(longId)"}"#, count: 9).joined(separator: ",") + "]"
            let clipped = try await server.ingest(array)
            #expect(clipped.status == 400)
            #expect(clipped.body.utf8.count < 8_192)
            #expect(try await server.request(.GET, "/v1/games").body.contains("g1") == false)
        }
    }

    @Test("409 for a message the fold refuses; nothing of that request is stored")
    func refused() async throws {
        try await withServer { server in
            #expect(try await server.ingest("[\(scheduled("g1")),\(started("g1")),\(final("g1"))]").status == 202)
            let reply = try await server.ingest("[\(scheduled("g2")),\(run("g1", 1))]")
            #expect(reply.status == 409, "\(reply.body)")
            #expect(reply.errorCode == "rejected")
            let details = (reply.object["error"] as? [String: Any])?["details"] as? [String: Any]
            #expect(details?["index"] as? Int == 1)
            #expect(details?["messageId"] as? String == "g1-run-1")
            #expect(try await server.request(.GET, "/v1/games/g2/events").status == 404)
        }
    }

    @Test("413 above the body limit, 415 for other content types")
    func limits() async throws {
        try await withServer(maxBodyBytes: 2048) { server in
            let big = "[" + (1...40).map { run("g1", $0) }.joined(separator: ",") + "]"
            #expect(big.utf8.count > 2048)
            let tooLarge = try await server.ingest(big)
            #expect(tooLarge.status == 413)
            #expect(tooLarge.errorCode == "body-too-large")
            for type in ["text/plain", "application/xml", "multipart/form-data; boundary=x"] {
                let reply = try await server.ingest(scheduled("g1"), type: type)
                #expect(reply.status == 415, "\(type)")
                #expect(reply.errorCode == "unsupported-media-type")
            }
            // Without Content-Length (chunked): refused once the limit is crossed.
            var chunked = HTTPClientRequest(url: server.base + "/v1/feed")
            chunked.method = .POST
            chunked.headers.add(name: "Authorization", value: "Bearer \(ingestKey)")
            chunked.headers.add(name: "Content-Type", value: "application/json")
            chunked.body = .stream(
                AsyncStream {
                    $0.yield(ByteBuffer(string: big))
                    $0.finish()
                }, length: .unknown)
            let response = try await HTTPClient.shared.execute(chunked, timeout: .seconds(30))
            #expect(response.status.code == 413)
            let answer = String(buffer: try await response.body.collect(upTo: 1 << 16))
            #expect(answer.contains("body-too-large"))
            let missing = try await server.request(
                .POST, "/v1/feed", body: scheduled("g1"), headers: [("Authorization", "Bearer \(ingestKey)")])
            #expect(missing.status == 415)
            #expect(try await server.request(.GET, "/v1/games/g1").status == 404)
        }
    }

    /// The headers of a request signed at `at` (default now): timestamp and signature.
    private func sign(_ body: String, at: Int = Int(Date().timeIntervalSince1970)) -> [(String, String)] {
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data("\(at).\(body)".utf8), using: SymmetricKey(data: Data(ingestSecret.utf8)))
        return [
            ("X-ScoreFeed-Timestamp", "\(at)"),
            ("X-ScoreFeed-Signature", "sha256=" + mac.map { String(format: "%02x", $0) }.joined()),
        ]
    }
}
