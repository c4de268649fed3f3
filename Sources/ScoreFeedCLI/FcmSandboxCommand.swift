import ArgumentParser
import FCMSandbox
import Foundation

/// `scorefeed fcm-sandbox`: the local FCM HTTP v1 compatible server, for tests, the demo and QA.
struct FcmSandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fcm-sandbox",
        abstract: "Run a local Firebase Cloud Messaging (HTTP v1) compatible HTTP/2 + TLS server that checks and "
            + "records messages.",
        discussion: """
            It generates a self-signed certificate (CA in DIR/ca.pem) and a service-account key file \
            (DIR/service-account.json, mode 0600) whose token_uri is its own POST /token: it exchanges JWT \
            assertions signed with that key for access tokens, checks every \
            POST /v1/projects/PROJECT/messages:send as FCM does (bearer token, project, message fields, \
            payload sizes, 240 messages a minute per device), records it in DIR/messages.jsonl and answers \
            in Google's formats, or with the scripted faults given by --fault: \
            STATUS:ERROR_CODE[:RETRY_AFTER][*COUNT][@TOKEN] (e.g. 404:UNREGISTERED, \
            429:QUOTA_EXCEEDED:30*3), delay:250ms, drop, oauth:invalid_grant. DIR/env holds the \
            SCOREFEED_FCM_* settings a client needs. Stops on SIGINT or SIGTERM.
            """
    )

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free one).")
    var port = 2198

    @Option(help: "Folder for the service-account key, the CA certificate, the message log and the env file.")
    var dir = ".scorefeed/fcm"

    @Option(help: "The Firebase project id accepted in messages:send paths.")
    var projectId = "scorefeed-sandbox"

    @Option(help: "A scripted fault (repeatable).")
    var fault: [String] = []

    @Option(help: "Lifetime of the issued access tokens, in seconds.")
    var tokenLifetime = 3600

    func validate() throws {
        guard tokenLifetime > 0 else { throw ValidationError("--token-lifetime must be positive") }
    }

    func run() async throws {
        var faults: [FCMScriptedFault] = []
        for spec in fault {
            do throws(FCMSandboxError) {
                faults.append(try FCMScriptedFault(parsing: spec))
            } catch {
                throw ValidationError("--fault: \(error.message)")
            }
        }
        let sandbox: FCMSandbox
        do {
            sandbox = try await FCMSandbox.start(
                .init(
                    host: host, port: port, projectId: projectId, accessTokenLifetime: .seconds(tokenLifetime),
                    faults: faults, directory: dir))
        } catch {
            throw CLIError.portInUse(error, port: port) ?? error
        }
        let envPath = sandbox.envPath ?? URL(fileURLWithPath: dir).appendingPathComponent("env").path
        Output.line("FCM sandbox listening on \(sandbox.url.absoluteString); client settings in \(envPath):")
        Output.write((try? String(contentsOfFile: envPath, encoding: .utf8)) ?? "")
        await SignalWait.interruptOrTerminate()
        await sandbox.stop()
        let messages = sandbox.messages()
        Output.line("stopped; \(messages.filter(\.isAccepted).count) of \(messages.count) message(s) accepted")
    }
}
