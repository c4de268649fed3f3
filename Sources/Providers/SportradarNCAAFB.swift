import Foundation
import ScoreDomain

/// Sportradar's NCAA football play-by-play (docs/providers.md, "sportradar-ncaafb"): v7
/// (`/ncaafb/trial/v7/en/games/{id}/pbp.json`, `periods[]` of drives and their `events[]`) or v1
/// (`ncaafb-t1`, `/{year}/{type}/{week}/{away}/{home}/pbp.json`, `quarters[]` of drives and their
/// `actions[]`). The shapes are the NFL's: ``SportradarNFL`` and this format share one reader; only the
/// league differs (competition `ncaa-football`, untimed overtime, game ids `sr-ncaafb-<id>`).
public enum SportradarNCAAFB: ProviderFormat {
    public static let name = "sportradar-ncaafb"
    public static let sport = Sport.football
    public static let summary =
        "Sportradar NCAA football play-by-play (v7 /ncaafb/trial/v7/en/games/{id}/pbp.json, or v1 ncaafb-t1), one per game"
    public static let reads = SportradarFootballLeague.reads

    /// A football play-by-play of either shape whose teams are not both NFL clubs (a college game between
    /// two schools with NFL aliases, such as `MIA` and `HOU`, needs `--format sportradar-ncaafb`).
    public static func detect(_ document: JSONValue) -> Bool {
        guard let (_, home, away) = SportradarFootballShape.of(document) else { return false }
        return !(SportradarNFL.clubs.contains(home) && SportradarNFL.clubs.contains(away))
    }

    /// The game's messages from its one play-by-play document.
    /// - Throws: ``ConvertError`` naming the field it could not read, or for more than one document.
    public static func convert(_ documents: [JSONValue]) throws(ConvertError) -> [FeedMessage] {
        try SportradarFootballLeague.ncaafb.convert(documents)
    }
}
