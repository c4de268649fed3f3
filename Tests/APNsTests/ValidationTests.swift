import APNs
import APNsSandbox
import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing

/// Raw HTTP/2 requests (not through `APNsClient`) checked by the sandbox exactly as APNs would.
@Suite("Sandbox request validation")
struct ValidationTests {
    /// One malformed request: how it differs from a valid one, and the expected APNs answer.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var method: HTTPMethod = .POST
        var path: String = "/3/device/\(Fixture.token())"
        var headers: [String: String?] = [:]
        var duplicate: (String, String)?
        var jwt: JWT = .valid
        var body: [UInt8] = Fixture.payload
        var status: Int
        var reason: String?

        var testDescription: String { name }
    }

    enum JWT: Sendable {
        case valid
        case otherKey
        case keyId(String)
        case teamId(String)
        case issuedAgo(TimeInterval)
        case raw(String)
    }

    static let cases: [Case] = [
        Case(name: "valid", status: 200),
        Case(
            name: "valid without optional headers",
            headers: ["apns-priority": nil, "apns-expiration": nil, "apns-id": nil], status: 200),
        Case(name: "GET", method: .GET, body: [], status: 405, reason: "MethodNotAllowed"),
        Case(name: "other path", path: "/3/devices/\(Fixture.token())", status: 404, reason: "BadPath"),
        Case(name: "empty token", path: "/3/device/", status: 400, reason: "MissingDeviceToken"),
        Case(
            name: "non-hex token", path: "/3/device/" + String(repeating: "zz", count: 32), status: 400,
            reason: "BadDeviceToken"),
        // Apple: don't assume a token's length.
        Case(name: "63 hex", path: "/3/device/" + String(Fixture.token().dropLast()), status: 200),
        Case(name: "16 hex", path: "/3/device/" + String(repeating: "a", count: 16), status: 200),
        Case(name: "200 hex", path: "/3/device/" + String(repeating: "a", count: 200), status: 200),
        Case(
            name: "1025 hex", path: "/3/device/" + String(repeating: "a", count: 1025), status: 400,
            reason: "BadDeviceToken"),
        Case(name: "alert push type", headers: ["apns-push-type": "alert"], status: 400, reason: "InvalidPushType"),
        Case(name: "no push type", headers: ["apns-push-type": nil], status: 400, reason: "InvalidPushType"),
        Case(name: "no topic", headers: ["apns-topic": nil], status: 400, reason: "MissingTopic"),
        Case(name: "bundle id topic", headers: ["apns-topic": Fixture.bundleId], status: 400, reason: "BadTopic"),
        Case(
            name: "other app topic", headers: ["apns-topic": "com.other.app.push-type.liveactivity"], status: 400,
            reason: "DeviceTokenNotForTopic"),
        Case(name: "priority 7", headers: ["apns-priority": "7"], status: 400, reason: "BadPriority"),
        Case(name: "priority high", headers: ["apns-priority": "high"], status: 400, reason: "BadPriority"),
        Case(
            name: "expiration text", headers: ["apns-expiration": "tomorrow"], status: 400, reason: "BadExpirationDate"),
        Case(name: "apns-id not UUID", headers: ["apns-id": "not-a-uuid"], status: 400, reason: "BadMessageId"),
        Case(
            name: "duplicate topic", duplicate: ("apns-topic", Fixture.topic), status: 400, reason: "DuplicateHeaders"),
        Case(name: "no authorization", headers: ["authorization": nil], status: 403, reason: "MissingProviderToken"),
        Case(name: "basic auth", jwt: .raw("basic dXNlcjpwYXNz"), status: 403, reason: "InvalidProviderToken"),
        Case(name: "garbage JWT", jwt: .raw("bearer abc.def.ghi"), status: 403, reason: "InvalidProviderToken"),
        Case(name: "JWT of another key", jwt: .otherKey, status: 403, reason: "InvalidProviderToken"),
        Case(name: "JWT wrong kid", jwt: .keyId("OTHERKEY12"), status: 403, reason: "InvalidProviderToken"),
        Case(name: "JWT wrong iss", jwt: .teamId("OTHERTEAM1"), status: 403, reason: "InvalidProviderToken"),
        Case(name: "JWT 59 minutes old", jwt: .issuedAgo(59 * 60), status: 200),
        Case(name: "JWT 61 minutes old", jwt: .issuedAgo(61 * 60), status: 403, reason: "ExpiredProviderToken"),
        Case(name: "4096 bytes", body: paddedPayload(4096), status: 200),
        Case(name: "4097 bytes", body: paddedPayload(4097), status: 413, reason: "PayloadTooLarge"),
        Case(name: "empty body", body: [], status: 400, reason: "PayloadEmpty"),
        Case(name: "not JSON", body: Array("hello".utf8), status: 400, reason: "PayloadEmpty"),
        Case(name: "no aps", body: Array(#"{"alert":"x"}"#.utf8), status: 400, reason: "PayloadEmpty"),
        Case(name: "aps not an object", body: Array(#"{"aps":1}"#.utf8), status: 400, reason: "PayloadEmpty"),
    ]

    /// A valid payload padded with a custom key to exactly `size` bytes.
    static func paddedPayload(_ size: Int) -> [UInt8] {
        let prefix = #"{"aps":{"event":"update","timestamp":1},"pad":""#
        return Array((prefix + String(repeating: "x", count: size - prefix.utf8.count - 2) + #""}"#).utf8)
    }

    static func authorization(_ jwt: JWT) throws -> String {
        let key = try P256.Signing.PrivateKey(pemRepresentation: Fixture.keys.privateKeyPEM)
        let now = Int64(Date().timeIntervalSince1970)
        let token: String
        switch jwt {
        case .valid:
            token = try APNsJWT.make(keyId: Fixture.keyId, teamId: Fixture.teamId, issuedAt: now, signingKey: key)
        case .otherKey:
            token = try APNsJWT.make(
                keyId: Fixture.keyId,
                teamId: Fixture.teamId,
                issuedAt: now,
                signingKey: P256.Signing.PrivateKey()
            )
        case .keyId(let keyId):
            token = try APNsJWT.make(keyId: keyId, teamId: Fixture.teamId, issuedAt: now, signingKey: key)
        case .teamId(let teamId):
            token = try APNsJWT.make(keyId: Fixture.keyId, teamId: teamId, issuedAt: now, signingKey: key)
        case .issuedAgo(let seconds):
            token = try APNsJWT.make(
                keyId: Fixture.keyId,
                teamId: Fixture.teamId,
                issuedAt: now - Int64(seconds),
                signingKey: key
            )
        case .raw(let value): return value
        }
        return "bearer \(token)"
    }

    @Test(arguments: cases)
    func answersLikeAPNs(_ testCase: Case) async throws {
        try await Fixture.withSandbox { sandbox, _ in
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.file(sandbox.caCertificatePath)]
            let http = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .init(tlsConfiguration: tls))
            let requestId = UUID().uuidString.lowercased()
            var headers: [String: String?] = [
                "apns-push-type": "liveactivity", "apns-topic": Fixture.topic, "apns-priority": "10",
                "apns-expiration": "0", "apns-id": requestId, "authorization": try Self.authorization(testCase.jwt),
            ]
            headers.merge(testCase.headers) { $1 }
            var request = HTTPClientRequest(url: sandbox.url.absoluteString + testCase.path)
            request.method = testCase.method
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
                if let value { request.headers.add(name: name, value: value) }
            }
            if let (name, value) = testCase.duplicate { request.headers.add(name: name, value: value) }
            if !testCase.body.isEmpty { request.body = .bytes(ByteBuffer(bytes: testCase.body)) }
            let response: HTTPClientResponse
            let body: ByteBuffer
            do {
                response = try await http.execute(request, timeout: .seconds(30))
                body = try await response.body.collect(upTo: 4096)
            } catch {
                try await http.shutdown()
                throw error
            }
            try await http.shutdown()

            #expect(response.version == .http2)
            #expect(Int(response.status.code) == testCase.status)
            let echoed = try #require(response.headers.first(name: "apns-id"))
            if headers["apns-id"] == requestId, testCase.reason != "BadMessageId" {
                #expect(echoed == requestId)
            } else {
                #expect(UUID(uuidString: echoed) != nil)
            }
            if let reason = testCase.reason {
                #expect(String(buffer: body) == #"{"reason":"\#(reason)"}"#)
            } else {
                #expect(body.readableBytes == 0)
            }
            let recorded = await sandbox.deliveries()
            #expect(recorded.map(\.status) == [testCase.status])
            #expect(recorded.map(\.reason) == [testCase.reason])
            #expect(recorded.map(\.outcome) == [testCase.status == 200 ? .delivered : .rejected])
        }
    }

    /// Misconfigurations of the client show up as the APNs answer and the matching action.
    @Test(arguments: [
        ("wrong bundle", 400, "DeviceTokenNotForTopic", APNsAction.deactivate(reason: "DeviceTokenNotForTopic")),
        ("wrong team", 403, "InvalidProviderToken", .pause(reason: "InvalidProviderToken")),
        ("wrong key", 403, "InvalidProviderToken", .pause(reason: "InvalidProviderToken")),
        ("bad token", 400, "BadDeviceToken", .deactivate(reason: "BadDeviceToken")),
        ("too large", 413, "PayloadTooLarge", .neverRetry(reason: "PayloadTooLarge")),
    ])
    func clientSeesTheAnswer(name: String, status: Int, reason: String, action: APNsAction) async throws {
        func configuration(_ sandbox: APNsSandbox) throws -> APNsConfiguration {
            try Fixture.clientConfiguration(
                for: sandbox,
                privateKeyPEM: name == "wrong key" ? APNsTestKeyPair().privateKeyPEM : Fixture.keys.privateKeyPEM,
                teamId: name == "wrong team" ? "OTHERTEAM1" : Fixture.teamId,
                bundleId: name == "wrong bundle" ? "com.example.other" : Fixture.bundleId
            )
        }
        try await Fixture.withSandbox(client: configuration) { _, client in
            let request = APNsRequest(
                deviceToken: name == "bad token" ? String(repeating: "zz", count: 32) : Fixture.token(),
                payload: name == "too large" ? Self.paddedPayload(5000) : Fixture.payload
            )
            let result = await client.send(request)
            #expect(result.status == status)
            #expect(result.reason == reason)
            #expect(result.apnsId == request.apnsId)
            #expect(result.action == action)
        }
    }

    @Test func clientRefusesATokenThatIsNotAlphanumeric() async throws {
        try await Fixture.withSandbox { sandbox, client in
            let result = await client.send(APNsRequest(deviceToken: "../../admin", payload: Fixture.payload))
            #expect(result.error?.code == .invalidRequest)
            #expect(result.action == .neverRetry(reason: "apns.invalid_request"))
            #expect(await sandbox.deliveries().isEmpty)
        }
    }
}
