import Foundation
import ScoreDomain

/// Sportradar's NFL play-by-play, in both of its shapes (docs/providers.md, "sportradar-nfl"): v7
/// (`/nfl/official/trial/v7/en/games/{id}/pbp.json`, also the older `nfl-ot1` of the same shape) with
/// `periods[]` of drives and their `events[]`, and v1 (`nfl-t1`, `/{year}/{type}/{week}/{away}/{home}/pbp.json`)
/// with `quarters[]` of drives and their `actions[]`. One document per game, read in game order.
///
/// v7 scoring comes from the running score every play states (`home_points`, `away_points`): the side
/// whose score went up, the kind from the rise and the play type; v1 scoring from each scoring play's
/// `score`. NCAA football's documents have the same shapes (``SportradarNCAAFB``); the reading is shared.
public enum SportradarNFL: ProviderFormat {
    public static let name = "sportradar-nfl"
    public static let sport = Sport.football
    public static let summary =
        "Sportradar NFL play-by-play (v7 /nfl/official/trial/v7/en/games/{id}/pbp.json, or v1 nfl-t1), one per game"
    public static let reads = SportradarFootballLeague.reads

    /// A football play-by-play of either shape (``SportradarFootballShape``) whose two teams are NFL clubs.
    public static func detect(_ document: JSONValue) -> Bool {
        guard let (_, home, away) = SportradarFootballShape.of(document) else { return false }
        return clubs.contains(home) && clubs.contains(away)
    }

    /// The game's messages from its one play-by-play document.
    /// - Throws: ``ConvertError`` naming the field it could not read, or for more than one document.
    public static func convert(_ documents: [JSONValue]) throws(ConvertError) -> [FeedMessage] {
        try SportradarFootballLeague.nfl.convert(documents)
    }

    /// The aliases of the NFL's clubs in Sportradar's documents, with the former ones (`STL`, `SD`, `OAK`,
    /// `JAC`): what tells an NFL document from an NCAA football one of the same shape.
    static let clubs: Set<String> = [
        "ARI", "ATL", "BAL", "BUF", "CAR", "CHI", "CIN", "CLE", "DAL", "DEN", "DET", "GB", "HOU", "IND", "JAC",
        "JAX", "KC", "LA", "LAC", "LAR", "LV", "MIA", "MIN", "NE", "NO", "NYG", "NYJ", "OAK", "PHI", "PIT", "SD",
        "SEA", "SF", "STL", "TB", "TEN", "WAS",
    ]

    /// The kind of a rise of `points` on a play of `playType` by the side with (`byOffense`) or without
    /// the ball: 6 a touchdown, 3 a field goal, 1 an extra point, 2 a two-point conversion (a defensive
    /// one for the side without the ball) on a conversion play and a safety on any other; else `nil`.
    public static func kind(points: Int, playType: String, byOffense: Bool) -> ScoringKind? {
        switch points {
        case 6: .touchdown
        case 3: .fieldGoal
        case 1: .extraPoint
        case 2 where playType == "conversion": byOffense ? .twoPointConversion : .defensiveConversion
        case 2: .safety
        default: nil
        }
    }
}
