import APNs
import APNsSandbox
import Foundation
import HTTP2Client
import NIOCore
import NIOHPACK
import NIOSSL
import Testing

@Suite("broadcast channels on the local APNs server")
struct ChannelTests {
    /// A client of the sandbox's channel management API.
    func withChannels(
        maximumChannels: Int = 10_000, _ body: (APNsSandbox, APNsChannelClient, APNsConfiguration) async throws -> Void
    ) async throws {
        var configuration = Fixture.sandboxConfiguration()
        configuration.maximumChannels = maximumChannels
        defer { try? FileManager.default.removeItem(atPath: configuration.caCertificateOutput!) }
        try await APNsSandbox.withRunning(configuration) { sandbox in
            let client = try Fixture.clientConfiguration(for: sandbox)
            let channels = APNsChannelClient(configuration: client, logger: Fixture.logger)
            do {
                try await body(sandbox, channels, client)
            } catch {
                await channels.shutdown()
                throw error
            }
            await channels.shutdown()
        }
    }

    @Test("create, read through all-channels, delete; errors as Apple's")
    func management() async throws {
        try await withChannels(maximumChannels: 2) { sandbox, channels, _ in
            let created = await channels.create()
            #expect(created.status == 201, "\(created)")
            let id = try #require(created.channelId)
            #expect(Data(base64Encoded: id) != nil)
            #expect(sandbox.channels.channel(id)?.storagePolicy == 0)
            #expect(try await channels.list().get() == [id])
            let second = await channels.create()
            #expect(second.status == 201)
            let full = await channels.create()
            #expect(full.status == 400 && full.reason == "CannotCreateChannelConfig")
            #expect(await channels.delete(id).status == 204)
            let again = await channels.delete(id)
            #expect(again.status == 400 && again.reason == "ChannelNotRegistered")
            #expect(await channels.delete("***").reason == "BadChannelId")
            #expect(try await channels.list().get() == [second.channelId!])
        }
    }

    @Test("a wrong key is refused; nothing is created")
    func wrongKey() async throws {
        try await withChannels { sandbox, _, client in
            let other = APNsTestKeyPair()
            let wrong = try APNsConfiguration(
                signingKeyPEM: other.privateKeyPEM, keyId: Fixture.keyId, teamId: Fixture.teamId,
                bundleId: Fixture.bundleId, environment: client.environment, additionalCAFile: client.additionalCAFile)
            let channels = APNsChannelClient(configuration: wrong, logger: Fixture.logger)
            let refused = await channels.create()
            await channels.shutdown()
            #expect(refused.status == 403 && refused.reason == "InvalidProviderToken")
            #expect(sandbox.channels.all().isEmpty)
        }
    }

    /// (headers to change, expected status, reason)
    static let broadcastCases: [([String: String?], Int, String?)] = [
        ([:], 200, nil),
        (["apns-priority": "5"], 200, nil),
        (["apns-channel-id": nil], 400, "MissingChannelId"),
        (["apns-push-type": nil], 400, "MissingPushType"),
        (["apns-push-type": "alert"], 400, "InvalidPushType"),
        (["apns-expiration": "1800000000"], 400, "BadExpirationDate"),
        (["apns-priority": "7"], 400, "BadPriority"),
        (["apns-channel-id": "AAAAAAAAAAAAAAAAAAAAAA=="], 400, "ChannelNotRegistered"),
        (["apns-topic": "\(Fixture.bundleId).push-type.liveactivity"], 400, "BadRequestParams"),
        (["authorization": nil], 403, "MissingProviderToken"),
    ]

    @Test("broadcasts are checked as APNs does and recorded with their channel", arguments: broadcastCases)
    func broadcast(changes: [String: String?], status: Int, reason: String?) async throws {
        try await withChannels { sandbox, channels, client in
            let id = try #require(await channels.create().channelId)
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.file(sandbox.caCertificatePath)]
            let pool = try HTTP2ConnectionPool(
                .init(host: "127.0.0.1", port: sandbox.url.port!, tls: tls), logger: Fixture.logger)
            var fields: [String: String?] = [
                "apns-channel-id": id, "apns-push-type": "liveactivity", "apns-priority": "10",
                "apns-expiration": "0",
                "authorization": "bearer \(try APNsTokenProvider(configuration: client).token())",
            ]
            fields.merge(changes) { $1 }
            var headers: HPACKHeaders = [
                ":method": "POST", ":scheme": "https", ":authority": "127.0.0.1",
                ":path": "/4/broadcasts/apps/\(Fixture.bundleId)",
            ]
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                if let value { headers.add(name: name, value: value) }
            }
            let outcome = await pool.execute(
                [HTTP2Request(headers: headers, body: ByteBuffer(bytes: Fixture.payload))],
                deadline: .now() + .seconds(10))[0]
            await pool.shutdown()
            let response = try outcome.get()
            #expect(response.status == status)
            #expect(APNsClient.result(outcome).reason == reason)
            let recorded = await sandbox.deliveries().filter(\.isBroadcast)
            #expect(recorded.count == 1)
            #expect(recorded.first?.isDelivered == (status == 200))
            if status == 200 { #expect(recorded.first?.channelId == id) }
        }
    }

    @Test("a broadcast over 5,120 bytes is 413")
    func tooLarge() async throws {
        try await withChannels { sandbox, channels, client in
            let id = try #require(await channels.create().channelId)
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.file(sandbox.caCertificatePath)]
            let pool = try HTTP2ConnectionPool(
                .init(host: "127.0.0.1", port: sandbox.url.port!, tls: tls), logger: Fixture.logger)
            let padding = String(repeating: "x", count: 5200)
            let body = Array(#"{"aps":{"event":"update","timestamp":1,"content-state":{"pad":"\#(padding)"}}}"#.utf8)
            var headers: HPACKHeaders = [
                ":method": "POST", ":scheme": "https", ":authority": "127.0.0.1",
                ":path": "/4/broadcasts/apps/\(Fixture.bundleId)",
            ]
            headers.add(name: "apns-channel-id", value: id)
            headers.add(name: "apns-push-type", value: "liveactivity")
            headers.add(name: "apns-expiration", value: "0")
            headers.add(name: "authorization", value: "bearer \(try APNsTokenProvider(configuration: client).token())")
            let outcome = await pool.execute(
                [HTTP2Request(headers: headers, body: ByteBuffer(bytes: body))], deadline: .now() + .seconds(10))[0]
            await pool.shutdown()
            #expect(try outcome.get().status == 413)
        }
    }
}
