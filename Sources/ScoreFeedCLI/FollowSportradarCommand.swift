import ArgumentParser
import AsyncHTTPClient
import Foundation
import LiveFollow
import NIOCore

/// `scorefeed follow sportradar --sport SPORT URL`: a Sportradar push feed, its games' REST
/// play-by-play read after every payload.
struct FollowSportradarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sportradar",
        abstract: "Follow a Sportradar push feed into the event log.",
        discussion: """
            Opens URL (the push feed's subscribe URL, redirects followed) and reads its JSON lines: each \
            payload names a game, whose REST play-by-play (--rest-url) is then read (conditionally) and \
            converted as `convert --format sportradar-SPORT` does; only what the log does not hold is \
            appended (a play Sportradar deleted or edited is retracted). Payloads that come during a \
            read are coalesced into one more read. The stream is reconnected with backoff when it ends, \
            fails or stalls (no line, not even a heartbeat, for --stall seconds), and every game seen \
            is read again after a reconnection, so a gap loses nothing. The API key is read from \
            SCOREFEED_SPORTRADAR_API_KEY and sent as the x-api-key header (never logged; an api_key in \
            URL is hidden in logs). With --game, only that game is followed and the command ends with \
            it; otherwise every game of the feed, until SIGINT/SIGTERM. See docs/providers.md, \
            "Following live".
            """
    )

    @Option(help: "The sport: \(LiveSource.SportradarSport.allCases.map(\.rawValue).joined(separator: ", ")).")
    var sport: String

    @Argument(
        help:
            "The push feed's subscribe URL, e.g. https://api.sportradar.com/nfl/official/production/stream/en/events/subscribe."
    )
    var url: String

    @Option(help: "Follow only this game (its Sportradar id) and stop at its end.")
    var game: String?

    @Option(
        help:
            "The game's REST play-by-play, {game} standing for its id (default: the trial URL of the sport on --base-url)."
    )
    var restURL: String?

    @Option(help: "The REST API's base URL.")
    var baseURL = "https://api.sportradar.com"

    @Option(help: "Seconds without a line (heartbeats come every 5) before the stream counts as stalled.")
    var stall: Double = 15

    @Option(help: "Seconds one REST request may take.")
    var timeout: Double = 15

    @Option(help: "Give up after this many failed connections or requests in a row (default: never).")
    var maxFailures: Int?

    @Option(help: "Write the pushes to this file instead of stdout.")
    var out: String?

    func validate() throws {
        guard let chosen = LiveSource.SportradarSport(rawValue: sport) else {
            throw ValidationError(
                "--sport must be one of "
                    + LiveSource.SportradarSport.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard chosen.format != nil else {
            throw ValidationError("--sport \(sport): this build has no converter for it")
        }
        for (name, value) in [("URL", url), ("--base-url", baseURL)] + (restURL.map { [("--rest-url", $0)] } ?? []) {
            guard value.hasPrefix("http://") || value.hasPrefix("https://"),
                URL(string: value.replacingOccurrences(of: "{game}", with: "g")) != nil
            else {
                throw ValidationError("\(name) must be an http:// or https:// URL")
            }
        }
        if let restURL, !restURL.contains("{game}") { throw ValidationError("--rest-url must contain {game}") }
        if let game, game.isEmpty || game.count > 64 { throw ValidationError("--game must be 1 to 64 characters") }
        guard (0.001...3_600).contains(stall) else {
            throw ValidationError("--stall must be a number of seconds from 0.001 to 3600")
        }
        try FollowRun.validate(baseURL: nil, interval: nil, timeout: timeout, maxFailures: maxFailures)
    }

    func run() async throws {
        guard let chosen = LiveSource.SportradarSport(rawValue: sport), let format = chosen.format else { return }
        let template = restURL ?? chosen.restURL(base: baseURL)
        let key = ProcessInfo.processInfo.environment["SCOREFEED_SPORTRADAR_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        let milliseconds = { (seconds: Double) in TimeAmount.milliseconds(Int64((seconds * 1000).rounded())) }
        let streamClient = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: .init(timeout: .init(connect: .seconds(10), read: milliseconds(stall))))
        let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        let follower = PushFollower(
            configuration: .init(
                streamURL: url, source: { LiveSource.sportradar(format: format, game: $0, restURL: template) },
                game: game, apiKey: key, maximumFailures: maxFailures),
            streamClient: streamClient,
            client: DocumentClient(
                httpClient: httpClient, requestTimeout: .milliseconds(Int64((timeout * 1000).rounded()))),
            logger: Runtime.logger)
        let name = "sportradar \(sport)" + (game.map { " \($0)" } ?? "")
        let done: PushFollower.Summary?
        do {
            done = try await FollowRun.run(name: name, out: out) { store, emit in
                try await follower.run(load: { try await store.stream($0).map(\.message) }) { messages in
                    _ = try await store.store(messages, source: name, emit: emit)
                }
            }
        } catch {
            try? await streamClient.shutdown()
            try? await httpClient.shutdown()
            throw error
        }
        try? await streamClient.shutdown()
        try? await httpClient.shutdown()
        if let s = done {
            Output.error(
                "followed \(name): \(s.connections) connection(s), \(s.payloads) payload(s), \(s.heartbeats) heartbeat(s), "
                    + "\(s.reads) read(s), \(s.documents.messages) message(s), \(s.documents.retractions) play(s) "
                    + "retracted, ended: \(s.ended.joined(separator: ", "))")
        }
    }
}
