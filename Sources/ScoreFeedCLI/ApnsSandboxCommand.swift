import APNsSandbox
import ArgumentParser
import Crypto
import Foundation

/// `scorefeed apns-sandbox`: the local APNs-compatible server, for tests, the demo and QA.
struct ApnsSandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apns-sandbox",
        abstract: "Run a local APNs-compatible HTTP/2 + TLS server that checks and records pushes.",
        discussion: """
            It generates a self-signed certificate (CA in DIR/ca.pem) and, unless given a public key, a \
            P-256 signing key (DIR/key.p8) whose JWTs it accepts. It checks method, path, headers, the \
            JWT signature, the token format and the payload size as APNs does, records every request \
            in DIR/deliveries.jsonl, and answers with the scripted faults given by --fault: \
            STATUS:REASON[:TIMESTAMP][*COUNT][@TOKEN] (e.g. 429:TooManyRequests*3), delay:250ms, drop. \
            With --random-faults RATE, that share of the other requests gets a 429, 500, 503, a dropped \
            connection or a delay, drawn from --seed so a run can be replayed. \
            DIR/env holds the SCOREFEED_APNS_* settings a client needs. Stops on SIGINT or SIGTERM.
            """
    )

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free one).")
    var port = 2197

    @Option(help: "Folder for the key, the CA certificate, the delivery log and the env file.")
    var dir = ".scorefeed/apns"

    @Option(help: "The bundle id whose Live Activity topic is accepted.")
    var bundleId = "com.example.scores"

    @Option(help: "The team id expected in JWTs.")
    var teamId = "TEAM000001"

    @Option(help: "The key id expected in JWTs.")
    var keyId = "KEY0000001"

    @Option(
        help: "A file with the PEM public key verifying the JWTs (default: the one of DIR/key.p8, created if missing).")
    var publicKey: String?

    @Option(help: "A scripted fault (repeatable).")
    var fault: [String] = []

    @Option(help: "The share of requests (0 to 1) that get a random fault: 429, 500, 503, drop or delay.")
    var randomFaults: Double?

    @Option(help: "The seed of the random faults.")
    var seed: UInt64 = 1

    func validate() throws {
        if let randomFaults, !(0...1).contains(randomFaults) {
            throw ValidationError("--random-faults must be between 0 and 1 (got \(randomFaults))")
        }
    }

    func run() async throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let folder = URL(fileURLWithPath: dir).standardizedFileURL
        let keyFile = folder.appendingPathComponent("key.p8").path
        let publicKeyPEM: String
        if let publicKey {
            do {
                publicKeyPEM = try String(contentsOfFile: publicKey, encoding: .utf8)
            } catch {
                throw CLIError("cannot read the public key file \(publicKey): \(error.localizedDescription)")
            }
        } else {
            publicKeyPEM = try signingKey(keyFile)
        }
        let faults = try fault.map { spec in
            do {
                return try ScriptedFault(parsing: spec)
            } catch {
                throw ValidationError("--fault \(spec): \(error)")
            }
        }
        let sandbox: APNsSandbox
        do {
            sandbox = try await APNsSandbox.bind(
                .init(
                    host: host, port: port, bundleId: bundleId, teamId: teamId, keyId: keyId,
                    publicKeyPEM: publicKeyPEM, caCertificateOutput: folder.appendingPathComponent("ca.pem").path,
                    deliveryLog: folder.appendingPathComponent("deliveries.jsonl").path, faults: faults,
                    randomFaults: randomFaults.map { RandomFaults(rate: $0, seed: seed) }))
        } catch {
            throw CLIError.portInUse(error, port: port) ?? error
        }
        // With --public-key the private key is the caller's: the env file cannot name it.
        let keyLine = publicKey == nil ? "SCOREFEED_APNS_KEY_FILE=\(keyFile)\n" : ""
        let env = """
            SCOREFEED_APNS_URL=\(sandbox.url.absoluteString)
            SCOREFEED_APNS_CA_FILE=\(sandbox.caCertificatePath)
            \(keyLine)SCOREFEED_APNS_KEY_ID=\(keyId)
            SCOREFEED_APNS_TEAM_ID=\(teamId)
            SCOREFEED_APNS_BUNDLE_ID=\(bundleId)

            """
        try env.write(toFile: folder.appendingPathComponent("env").path, atomically: true, encoding: .utf8)
        Output.line("APNs sandbox listening on \(sandbox.url.absoluteString); client settings in \(folder.path)/env:")
        Output.write(env)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await sandbox.run() }
            await SignalWait.interruptOrTerminate()
            await sandbox.stop()
            await group.waitForAll()
        }
        let (delivered, all) = (await sandbox.delivered().count, await sandbox.deliveries().count)
        Output.line("stopped; \(delivered) of \(all) request(s) delivered")
    }

    /// The public key of the `.p8` at `path`, creating the key when the file does not exist.
    private func signingKey(_ path: String) throws -> String {
        if FileManager.default.fileExists(atPath: path) {
            do {
                let pem = try String(contentsOfFile: path, encoding: .utf8)
                return try P256.Signing.PrivateKey(pemRepresentation: pem).publicKey.pemRepresentation
            } catch {
                throw CLIError("\(path) is not a readable P-256 .p8 key: \(error)")
            }
        }
        let pair = APNsTestKeyPair()
        // Readable by its owner only from the start.
        guard
            FileManager.default.createFile(
                atPath: path, contents: Data(pair.privateKeyPEM.utf8), attributes: [.posixPermissions: 0o600])
        else { throw CLIError("cannot write the key \(path)") }
        return pair.publicKeyPEM
    }
}
