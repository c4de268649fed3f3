import ScoreDomain

/// Builds the APNs request body `{"aps":{…}}` of one Live Activity push.
///
/// Keys of `aps`: `timestamp`, `event`, `content-state` = `{"status":{"awayScore","homeScore",
/// "inning","status","outs","bases"}}` (the reference app's `ContentState` decodes the first four
/// and ignores the others), `stale-date` (updates only),
/// `dismissal-date` (end only) and, for priority-10 moments, `alert` = `{title, body, sound}`.
/// Never contains `null`.
struct APSPayload {
    /// APNs rejects larger payloads with 413 `PayloadTooLarge`.
    static let maxBytes = 4096

    var state: ScoreState
    var event: LiveActivityEvent
    var timestamp: Int
    var alertTitle: String?
    var staleAfter: Int
    var dismissAfter: Int
    /// `relevance-score`, when the push carries one.
    var relevanceScore: Int? = nil

    /// Alert body: away code, away score, en dash, home score, home code, display inning:
    /// `TEX 3 – 2 ANA, Top 4th`.
    static func alertBody(_ state: ScoreState) -> String {
        "\(state.away.code) \(state.awayScore) \u{2013} \(state.homeScore) \(state.home.code), \(state.inning)"
    }

    /// The compact, key-sorted JSON text of the payload.
    func json() -> String {
        var aps: [String: JSONValue] = [
            "timestamp": .int(timestamp),
            "event": .string(event.rawValue),
            "content-state": .object([
                "status": .object([
                    "homeScore": .int(state.homeScore),
                    "awayScore": .int(state.awayScore),
                    "inning": .string(state.inning),
                    "status": .string(state.status.rawValue),
                    "outs": .int(state.outs),
                    "bases": state.bases.jsonValue,
                ])
            ]),
        ]
        switch event {
        case .update: aps["stale-date"] = .int(timestamp + staleAfter)
        case .end: aps["dismissal-date"] = .int(timestamp + dismissAfter)
        }
        if let relevanceScore { aps["relevance-score"] = .int(relevanceScore) }
        if let alertTitle {
            aps["alert"] = .object([
                "title": .string(alertTitle),
                "body": .string(APSPayload.alertBody(state)),
                "sound": .string("default"),
            ])
        }
        let text = JSONValue.object(["aps": .object(aps)]).serialized()
        // With the feed's field limits (8-character codes, scores ≤ 999, inning ≤ 99) the payload
        // stays under 400 bytes; a larger one means a state that bypassed validation.
        precondition(text.utf8.count <= APSPayload.maxBytes, "APNs payload of \(text.utf8.count) bytes exceeds 4096")
        return text
    }
}
