import ScoreDomain

/// Builds the APNs request body `{"aps":{…}}` of one Live Activity push.
///
/// Keys of `aps`: `timestamp`, `event`, `content-state` = `{"status":{"awayScore","bases","homeScore",
/// "inning","outs","status"}}` (a clock sport adds optional keys: ``writeSportContentState(_:to:)``),
/// `stale-date` (updates only; later while a clock runs: ``staleDate(_:timestamp:staleAfter:)``),
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

    /// Alert body: away code, away score, en dash, home score, home code, the period label (baseball's
    /// display inning): `TEX 3 – 2 ANA, Top 4th`, `FRA 2 – 2 ARG, ET2`; a shoot-out's tally after it,
    /// away first: `FRA 2 – 2 ARG, Final/Pens (2–4)`.
    static func alertBody(_ state: ScoreState) -> String {
        let line = "\(state.away.code) \(state.awayScore) \u{2013} \(state.homeScore) \(state.home.code), "
        guard state.sport != .baseball else { return line + state.inning }
        guard let shootout = state.shootout else { return line + state.periodLabel }
        return line + state.periodLabel + " (\(shootout.away)\u{2013}\(shootout.home))"
    }

    /// `aps.content-state`: what the phone shows, `{"status":{"awayScore","bases","homeScore","inning","outs","status"}}`
    /// for baseball; a clock sport's adds its keys (``writeSportContentState(_:to:)``).
    static func writeContentState(_ state: ScoreState, to out: inout String) {
        guard state.sport == .baseball else { return writeSportContentState(state, to: &out) }
        out += #"{"status":{"awayScore":\#(state.awayScore),"bases":"#
        state.bases.jsonValue.write(to: &out)
        out += #","homeScore":\#(state.homeScore),"inning":"#
        JSONValue.writeString(state.inning, to: &out)
        out += #","outs":\#(state.outs),"status":"#
        JSONValue.writeString(state.status.rawValue, to: &out)
        out += "}}"
    }

    /// A 64-bit digest (FNV-1a) of the content state: equal digests, nothing new on the lock screen.
    static func contentDigest(_ state: ScoreState) -> UInt64 {
        var text = ""
        text.reserveCapacity(160)
        writeContentState(state, to: &text)
        return fnv1a64(text)
    }

    /// The compact, key-sorted JSON text of the payload.
    ///
    /// Written directly, keys in sorted order, rather than through a `JSONValue` tree: the projector
    /// makes one per activity, 10,000 for one run in a big game.
    func json() -> String {
        var out = ""
        out.reserveCapacity(400)
        out += #"{"aps":{"#
        if let alertTitle {
            out += #""alert":{"body":"#
            JSONValue.writeString(APSPayload.alertBody(state), to: &out)
            out += #","sound":"default","title":"#
            JSONValue.writeString(alertTitle, to: &out)
            out += "},"
        }
        out += #""content-state":"#
        Self.writeContentState(state, to: &out)
        out += ","
        if event == .end { out += #""dismissal-date":\#(timestamp + dismissAfter),"# }
        out += #""event":"#
        JSONValue.writeString(event.rawValue, to: &out)
        if let relevanceScore { out += #","relevance-score":\#(relevanceScore)"# }
        if event == .update {
            out += #","stale-date":\#(APSPayload.staleDate(state, timestamp: timestamp, staleAfter: staleAfter))"#
        }
        out += #","timestamp":\#(timestamp)}}"#
        // With the feed's field limits (8-character codes, scores ≤ 999, inning ≤ 99) the payload
        // stays under 400 bytes (a clock sport's under 1 KB); a larger one means a state that bypassed
        // validation.
        precondition(out.utf8.count <= APSPayload.maxBytes, "APNs payload of \(out.utf8.count) bytes exceeds 4096")
        return out
    }
}

/// The push-to-start body (iOS 17.2+; iOS 18 keys): `event: "start"`, the widget's attributes type
/// and static attributes (the game id and the teams, as `ScoreWidgetAttributes` in
/// `docs/app-contract.md` declares them), the current content state, an alert (Apple requires one: a
/// start without it silently fails), and how the new activity gets its updates: `input-push-channel`
/// (it joins the game's broadcast channel) or `input-push-token: 1` (it gets an update token the app
/// reports). Keys written in sorted order.
public enum StartPayload {
    /// The reference app's `ActivityAttributes` type.
    public static let attributesType = "ScoreWidgetAttributes"

    public static func json(state: ScoreState, timestamp: Int, channelId: String?, staleAfter: Int = 900) -> String {
        var out = #"{"aps":{"alert":{"body":"#
        JSONValue.writeString(APSPayload.alertBody(state), to: &out)
        out += #","sound":"default","title":"#
        JSONValue.writeString("\(state.away.name) at \(state.home.name)", to: &out)
        out += #"},"attributes":{"away":"#
        state.away.jsonValue.write(to: &out)
        out += #","gameId":"#
        JSONValue.writeString(state.gameId, to: &out)
        out += #","home":"#
        state.home.jsonValue.write(to: &out)
        out += #"},"attributes-type":"#
        JSONValue.writeString(attributesType, to: &out)
        out += #","content-state":"#
        APSPayload.writeContentState(state, to: &out)
        out += #","event":"start","#
        if let channelId {
            out += #""input-push-channel":"#
            JSONValue.writeString(channelId, to: &out)
        } else {
            out += #""input-push-token":1"#
        }
        out += #","stale-date":\#(APSPayload.staleDate(state, timestamp: timestamp, staleAfter: staleAfter))"#
        out += #","timestamp":\#(timestamp)}}"#
        return out
    }
}
