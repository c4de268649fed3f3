import Foundation
import Providers

/// A provider's public live documents of one game, polled whole: the document that grows with the
/// game, and an optional companion fetched once at the start (a box score naming the teams).
public struct LiveSource: Sendable {
    /// The format that converts the documents.
    public var format: any ProviderFormat.Type
    /// The game as the provider numbers it (in logs and errors).
    public var game: String
    /// The polled document.
    public var documentURL: String
    /// The companion document, fetched once before the first poll; a 404 there is no error.
    public var companionURL: String?

    public init(format: any ProviderFormat.Type, game: String, documentURL: String, companionURL: String? = nil) {
        self.format = format
        self.game = game
        self.documentURL = documentURL
        self.companionURL = companionURL
    }

    /// NHL api-web: `GET {base}/v1/gamecenter/{game}/play-by-play` (base `https://api-web.nhle.com`).
    public static func nhl(game: Int, baseURL: String) -> LiveSource {
        LiveSource(
            format: NHLWeb.self, game: String(game),
            documentURL: "\(trimmed(baseURL))/v1/gamecenter/\(game)/play-by-play")
    }

    /// NBA live data: `GET {base}/static/json/liveData/playbyplay/playbyplay_{game}.json`, with the
    /// game's box score `…/boxscore/boxscore_{game}.json` (teams, start time) as the companion
    /// (base `https://cdn.nba.com`).
    public static func nba(game: String, baseURL: String) -> LiveSource {
        let live = "\(trimmed(baseURL))/static/json/liveData"
        return LiveSource(
            format: NBALive.self, game: game, documentURL: "\(live)/playbyplay/playbyplay_\(game).json",
            companionURL: "\(live)/boxscore/boxscore_\(game).json")
    }

    static func trimmed(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}

extension LiveSource {
    /// A sport of Sportradar's push feeds, with the format of its REST play-by-play.
    public enum SportradarSport: String, CaseIterable, Sendable {
        case nfl, ncaafb, nba, soccer

        /// The format of the game's REST document (`sportradar-nfl`, …), when this build has it.
        public var format: (any ProviderFormat.Type)? { ProviderFormats.named("sportradar-\(rawValue)") }

        /// The REST play-by-play (soccer: the timeline) on `base`, `{game}` standing for the game's id
        /// (the trial access level; pass another with `--rest-url`).
        public func restURL(base: String) -> String {
            let base = LiveSource.trimmed(base)
            return switch self {
            case .nfl: "\(base)/nfl/official/trial/v7/en/games/{game}/pbp.json"
            case .ncaafb: "\(base)/ncaafb/trial/v7/en/games/{game}/pbp.json"
            case .nba: "\(base)/nba/trial/v8/en/games/{game}/pbp.json"
            case .soccer: "\(base)/soccer/trial/v4/en/sport_events/{game}/timeline.json"
            }
        }
    }

    /// A game's Sportradar REST document: `restURL` with `{game}` replaced by the game's id.
    public static func sportradar(format: any ProviderFormat.Type, game: String, restURL: String) -> LiveSource {
        let escaped = game.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? game
        return LiveSource(
            format: format, game: game, documentURL: restURL.replacingOccurrences(of: "{game}", with: escaped))
    }
}
