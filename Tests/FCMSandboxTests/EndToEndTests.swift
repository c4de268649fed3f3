import CryptoExtras
import FCMSandbox
import Foundation
import HTTP2Client
import JOSE
import NIOCore
import NIOHPACK
import NIOSSL
import Testing

/// A client of a running sandbox over TLS + HTTP/2, through the project's own connection pool.
struct SandboxClient {
    let sandbox: FCMSandbox
    let pool: HTTP2ConnectionPool

    init(_ sandbox: FCMSandbox) throws {
        self.sandbox = sandbox
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.file(sandbox.caCertificatePath)]
        pool = try HTTP2ConnectionPool(.init(host: "127.0.0.1", port: sandbox.port, tls: tls), logger: Fixture.logger)
    }

    /// The fields of the sandbox's service-account key file.
    var account: [String: String] {
        get throws {
            let object = try JSONSerialization.jsonObject(with: Data(sandbox.serviceAccountJSON.utf8))
            return try #require(object as? [String: String])
        }
    }

    /// An assertion signed with the service-account key, as a Google client library makes it.
    func assertion(now: Date = Date()) throws -> String {
        let account = try account
        let key = try _RSA.Signing.PrivateKey(pemRepresentation: try #require(account["private_key"]))
        let header = #"{"alg":"RS256","typ":"JWT","kid":"\#(try #require(account["private_key_id"]))"}"#
        let seconds = Int(now.timeIntervalSince1970)
        let claims =
            #"{"iss":"\#(try #require(account["client_email"]))","scope":"https://www.googleapis.com/auth/firebase.messaging","#
            + #""aud":"\#(try #require(account["token_uri"]))","iat":\#(seconds),"exp":\#(seconds + 3600)}"#
        let input = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(claims.utf8))
        let signature = try key.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// `POST /token`; the status and the body.
    func exchange(_ assertion: String) async throws -> (Int, [String: Any]) {
        let body = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
        let response = try await execute(path: "/token", contentType: "application/x-www-form-urlencoded", body: body)
        let object = try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8))
        return (response.status, try #require(object as? [String: Any]))
    }

    /// A fresh access token.
    func accessToken() async throws -> String {
        let (status, object) = try await exchange(try assertion())
        #expect(status == 200)
        return try #require(object["access_token"] as? String)
    }

    /// `POST /v1/projects/{project}/messages:send`.
    func send(
        _ body: String = Fixture.message(), bearer: String, project: String = "scorefeed-sandbox"
    ) async throws -> HTTP2Response {
        try await execute(
            path: "/v1/projects/\(project)/messages:send", contentType: "application/json", body: body,
            authorization: "Bearer \(bearer)")
    }

    func execute(path: String, contentType: String, body: String, authorization: String? = nil) async throws
        -> HTTP2Response
    {
        var headers: HPACKHeaders = [
            ":method": "POST", ":scheme": "https", ":authority": "127.0.0.1:\(sandbox.port)", ":path": path,
            "content-type": contentType,
        ]
        if let authorization { headers.add(name: "authorization", value: authorization) }
        let outcome = await pool.execute(
            [HTTP2Request(headers: headers, body: ByteBuffer(string: body))], deadline: .now() + .seconds(5))[0]
        return try outcome.get()
    }

    /// The `errorCode` of the `FcmError` detail of an error answer.
    static func errorCode(_ response: HTTP2Response) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8))
        let error = try #require((object as? [String: Any])?["error"] as? [String: Any])
        let details = error["details"] as? [[String: Any]] ?? []
        return details.first { $0["@type"] as? String == "type.googleapis.com/google.firebase.fcm.v1.FcmError" }?[
            "errorCode"] as? String
    }

    /// Runs `body` with a started sandbox and a client; stops both afterwards.
    static func with(
        _ configuration: FCMSandbox.Configuration = .init(), _ body: (SandboxClient) async throws -> Void
    ) async throws {
        let sandbox = try await FCMSandbox.start(configuration, logger: Fixture.logger)
        let client: SandboxClient
        do {
            client = try SandboxClient(sandbox)
        } catch {
            await sandbox.stop()
            throw error
        }
        do {
            try await body(client)
        } catch {
            await client.pool.shutdown()
            await sandbox.stop()
            throw error
        }
        await client.pool.shutdown()
        await sandbox.stop()
    }
}

@Suite("End to end over TLS + HTTP/2")
struct EndToEndTests {
    @Test("a token exchanged for a signed assertion sends a message; files are written for clients")
    func accepted() async throws {
        let directory = Fixture.temporaryPath("dir")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await SandboxClient.with(.init(directory: directory)) { client in
            let sandbox = client.sandbox
            let account = try client.account
            #expect(account["type"] == "service_account")
            #expect(account["project_id"] == "scorefeed-sandbox")
            #expect(account["token_uri"] == "https://127.0.0.1:\(sandbox.port)/token")
            #expect(account["private_key"]?.hasPrefix("-----BEGIN PRIVATE KEY-----\n") == true)

            let (status, object) = try await client.exchange(try client.assertion())
            #expect(status == 200)
            #expect(object["expires_in"] as? Int == 3600)
            #expect(object["token_type"] as? String == "Bearer")
            let token = try #require(object["access_token"] as? String)

            let response = try await client.send(bearer: token)
            #expect(response.status == 200)
            #expect(String(buffer: response.body).hasPrefix(#"{"name":"projects/scorefeed-sandbox/messages/0:"#))
            #expect(sandbox.issuedAccessTokens() == 1)
            let messages = sandbox.messages()
            #expect(messages.count == 1)
            #expect(messages.first?.status == 200)
            #expect(messages.first?.errorCode == nil)
            #expect(messages.first?.body == Fixture.message())
            #expect(messages.first?.target == "device-a:APA91b")
            #expect(sandbox.accepted() == messages)

            let folder = URL(fileURLWithPath: directory).standardizedFileURL.path
            #expect(sandbox.serviceAccountPath == "\(folder)/service-account.json")
            #expect(sandbox.caCertificatePath == "\(folder)/ca.pem")
            let permissions =
                try FileManager.default.attributesOfItem(atPath: sandbox.serviceAccountPath)[
                    .posixPermissions] as? Int
            #expect(permissions == 0o600)
            #expect(
                try String(contentsOfFile: sandbox.serviceAccountPath, encoding: .utf8) == sandbox.serviceAccountJSON)
            #expect(
                try String(contentsOfFile: "\(folder)/env", encoding: .utf8)
                    == "SCOREFEED_FCM_CREDENTIALS=\(folder)/service-account.json\n"
                    + "SCOREFEED_FCM_URL=https://127.0.0.1:\(sandbox.port)\nSCOREFEED_FCM_CA_FILE=\(folder)/ca.pem\n")
            let lines = try String(contentsOfFile: "\(folder)/messages.jsonl", encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 1)
            #expect(lines.first?.contains(#""accepted":true"#) == true)
            #expect(lines.first?.contains(#""target":"device-a:APA91b""#) == true)
        }
    }

    @Test("a bearer token the sandbox did not issue is 401 UNAUTHENTICATED and recorded")
    func badBearer() async throws {
        try await SandboxClient.with { client in
            let response = try await client.send(bearer: "ya29.forged")
            #expect(response.status == 401)
            #expect(
                String(buffer: response.body)
                    == #"{"error":{"code":401,"message":"Request had invalid authentication credentials. Expected "#
                    + #"OAuth 2 access token, login cookie or other valid authentication credential.","#
                    + #""status":"UNAUTHENTICATED"}}"#)
            #expect(client.sandbox.messages().map(\.errorCode) == ["UNAUTHENTICATED"])
            #expect(client.sandbox.accepted().isEmpty)
        }
    }

    @Test("faults are played in order, token-scoped ones only for their token")
    func faults() async throws {
        let configuration = FCMSandbox.Configuration(faults: [try FCMScriptedFault(parsing: "429:QUOTA_EXCEEDED:30")])
        try await SandboxClient.with(configuration) { client in
            let token = try await client.accessToken()
            client.sandbox.inject(.unregistered, token: "device-b")
            let quota = try await client.send(bearer: token)
            #expect(quota.status == 429)
            #expect(quota.headers.first(name: "retry-after") == "30")
            #expect(try SandboxClient.errorCode(quota) == "QUOTA_EXCEEDED")
            #expect(try await client.send(bearer: token).status == 200)
            let gone = try await client.send(Fixture.message(token: "device-b"), bearer: token)
            #expect(gone.status == 404)
            #expect(try SandboxClient.errorCode(gone) == "UNREGISTERED")
            #expect(try await client.send(Fixture.message(token: "device-b"), bearer: token).status == 200)
            #expect(client.sandbox.messages().map(\.status) == [429, 200, 404, 200])
            #expect(client.sandbox.messages().map(\.errorCode) == ["QUOTA_EXCEEDED", nil, "UNREGISTERED", nil])
            #expect(client.sandbox.accepted().count == 2)
        }
    }

    @Test("a refused exchange, then expired access tokens, then a new exchange")
    func expiry() async throws {
        try await SandboxClient.with { client in
            client.sandbox.inject(.refuseToken)
            let (status, refusal) = try await client.exchange(try client.assertion())
            #expect(status == 400)
            #expect(refusal["error"] as? String == "invalid_grant")
            let token = try await client.accessToken()
            #expect(try await client.send(bearer: token).status == 200)
            client.sandbox.expireAccessTokens()
            #expect(try await client.send(bearer: token).status == 401)
            let renewed = try await client.accessToken()
            #expect(try await client.send(bearer: renewed).status == 200)
            #expect(client.sandbox.issuedAccessTokens() == 2)
            #expect(client.sandbox.messages().map(\.status) == [200, 401, 200])
        }
    }

    @Test("more than perDeviceLimitPerMinute messages to one device is 429 with retry-after")
    func perDeviceLimit() async throws {
        try await SandboxClient.with(.init(perDeviceLimitPerMinute: 2)) { client in
            let token = try await client.accessToken()
            var statuses: [Int] = []
            for _ in 0..<3 { statuses.append(try await client.send(bearer: token).status) }
            #expect(statuses == [200, 200, 429])
            let refused = try await client.send(bearer: token)
            #expect(try SandboxClient.errorCode(refused) == "QUOTA_EXCEEDED")
            let retryAfter = try #require(refused.headers.first(name: "retry-after").flatMap { Int($0) })
            // A rolling minute: the oldest accepted message leaves it within 60 s.
            #expect((30...60).contains(retryAfter))
            #expect(try await client.send(Fixture.message(token: "device-b"), bearer: token).status == 200)
            #expect(client.sandbox.accepted().count == 3)
        }
    }

    @Test("a dropped connection answers nothing and is recorded; the client reconnects")
    func drop() async throws {
        try await SandboxClient.with { client in
            let token = try await client.accessToken()
            client.sandbox.inject(.drop)
            await #expect(throws: HTTP2ClientError.self) { try await client.send(bearer: token) }
            #expect(try await client.send(bearer: token).status == 200)
            #expect(client.sandbox.messages().map(\.status) == [0, 200])
        }
    }

    @Test("another project is 403 and an unknown path Google's front end's HTML 404, not an API error")
    func paths() async throws {
        try await SandboxClient.with { client in
            let token = try await client.accessToken()
            let other = try await client.send(bearer: token, project: "another-project")
            #expect(other.status == 403)
            let unknown = try await client.execute(path: "/fcm/send", contentType: "application/json", body: "{}")
            #expect(unknown.status == 404)
            #expect(unknown.headers.first(name: "content-type") == "text/html; charset=UTF-8")
            #expect(String(buffer: unknown.body).contains("The requested URL <code>/fcm/send</code> was not found"))
            #expect(client.sandbox.messages().map(\.errorCode) == ["PERMISSION_DENIED"])
        }
    }

    @Test("a delayed message is answered after the delay")
    func delay() async throws {
        try await SandboxClient.with(.init(faults: [FCMScriptedFault(.delay(.milliseconds(300)))])) { client in
            let token = try await client.accessToken()
            let start = ContinuousClock.now
            #expect(try await client.send(bearer: token).status == 200)
            #expect(ContinuousClock.now - start >= .milliseconds(300))
            #expect(client.sandbox.accepted().count == 1)
        }
    }

    @Test("without a directory the key file and the CA certificate are temporary")
    func temporaryFiles() async throws {
        let sandbox = try await FCMSandbox.start(.init(), logger: Fixture.logger)
        let paths = [sandbox.serviceAccountPath, sandbox.caCertificatePath]
        #expect(paths.map { FileManager.default.fileExists(atPath: $0) } == [true, true])
        #expect(try String(contentsOfFile: sandbox.caCertificatePath, encoding: .utf8) == sandbox.caCertificatePEM)
        await sandbox.stop()
        #expect(paths.map { FileManager.default.fileExists(atPath: $0) } == [false, false])
    }

    @Test("a bad configuration is refused")
    func badConfiguration() async throws {
        await #expect(
            throws: FCMSandboxError(.invalidConfiguration, "the per-device limit must be at least 1")
        ) { try await FCMSandbox.start(.init(perDeviceLimitPerMinute: 0)) }
    }

    @Test("a busy port is a bindFailed error saying so")
    func busyPort() async throws {
        let first = try await FCMSandbox.start(.init(), logger: Fixture.logger)
        let error = await #expect(throws: FCMSandboxError.self) {
            try await FCMSandbox.start(.init(port: first.port), logger: Fixture.logger)
        }
        #expect(error?.code == .bindFailed)
        #expect(error?.message.contains("Address already in use") == true)
        await first.stop()
    }
}
