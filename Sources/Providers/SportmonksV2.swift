import Foundation
import ScoreDomain

/// Sportmonks Soccer API 2.0: a fixture by id (`/api/v2.0/fixtures/{id}?include=localTeam,visitorTeam,events`)
/// or a list of fixtures (`livescores`, `fixtures/date/{date}`, …) in the `data` envelope, one document;
/// a list gives every fixture's messages, fixture after fixture in the document's order
/// (docs/providers.md, "sportmonks-v2").
///
/// The fixture is read into the form of ``SportmonksV3Fixture`` and sent by the same writer: events
/// ordered by the period of their minute, the minute, the stoppage minute and the id; a goal's `result`
/// the running score the provider states; `at` derived from `time.starting_at` and the match minute.
public enum SportmonksV2: ProviderFormat {
    public static let name = "sportmonks-v2"
    public static let sport = Sport.soccer
    public static let summary =
        "Sportmonks Soccer API 2.0: /api/v2.0/fixtures/{id}?include=localTeam,visitorTeam,events, or a list"
        + " (livescores, fixtures/date), every fixture in it"
    public static let reads = JSONMemberFilter(
        words: """
            aggregate_id cards data et_score events extra_minute fixture_id goals id leg localTeam
            localteam_id localteam_pen_score localteam_score logo_path minute name player_name ps_score result
            scores short_code starting_at status team_id time timestamp type visitorTeam visitorteam_id
            visitorteam_pen_score visitorteam_score
            """)

    /// The fixtures of a document: its `data` object or the elements of its `data` array, or the
    /// document itself when it is a fixture without the envelope.
    static func fixtures(_ document: DocumentNode) throws(ConvertError) -> [DocumentNode] {
        let data = document["data"]
        switch data.value {
        case .object?: return [data]
        case .array?:
            let fixtures = try data.array()
            guard !fixtures.isEmpty else { throw data.failure("a fixture or a list of fixtures expected, found none") }
            return fixtures
        default:
            guard case .object? = document.value, document.has("localteam_id") else {
                throw data.failure("missing (a fixture or a list of fixtures expected)")
            }
            return [document]
        }
    }

    /// A fixture (its `data`, the first of a `data` list, or the document itself) with an integer `id`,
    /// `localteam_id` and `visitorteam_id`, and a `time.starting_at` object: API 3.0 has none of these.
    public static func detect(_ document: JSONValue) -> Bool {
        let root = DocumentNode(document, format: name)
        var fixture = root["data"]
        if case .array(let items)? = fixture.value {
            guard let first = items.first else { return false }
            fixture = DocumentNode(first, format: name)
        } else if fixture.isMissing {
            fixture = root
        }
        guard (try? fixture.int("id")) != nil, (try? fixture.int("localteam_id")) != nil,
            (try? fixture.int("visitorteam_id")) != nil
        else { return false }
        if case .object? = fixture["time"]["starting_at"].value { return true }
        return false
    }

    /// Every fixture's messages, in the document's order.
    /// - Throws: ``ConvertError`` naming the field it could not read, for more than one document, or
    ///   for a fixture listed twice.
    public static func convert(_ documents: [JSONValue]) throws(ConvertError) -> [FeedMessage] {
        guard documents.count == 1 else {
            throw ConvertError(
                format: name, reason: "takes one document (a fixture or a list of fixtures), not \(documents.count)")
        }
        var messages: [FeedMessage] = []
        var seen: Set<Int> = []
        for node in try fixtures(DocumentNode(documents[0], format: name)) {
            let read = try SportmonksV2Fixture(node)
            guard seen.insert(read.fixture.fixtureId).inserted else {
                throw node["id"].failure("fixture \(read.fixture.fixtureId) is listed twice")
            }
            var writer = SportmonksV3Writer(fixture: read.fixture)
            var fixtureMessages = try writer.messages()
            if let ending = read.ending, let scheduled = fixtureMessages.last {
                // Postponed or cancelled: no event, so the end is at the stated kick-off, derived.
                fixtureMessages.append(
                    FeedMessage(
                        id: "\(name)-\(read.fixture.fixtureId)-ended", gameId: read.fixture.gameId, at: scheduled.at,
                        event: .gameEnded(ending), atDerived: true))
            }
            messages += fixtureMessages
        }
        return messages
    }

    /// What `time.status` says, as the v3 state the writer reads (``SportmonksV3Writer/state(_:)``), and
    /// the end of a game that will not be played; `nil` for a status the converter does not take.
    /// `LIVE` is the first half up to minute 45, the second after; `ET` the first half of extra time
    /// up to minute 105, the second after.
    static func state(status: String, minute: Int?) -> (stateId: Int, ending: GameStatus?)? {
        switch status {
        case "NS", "TBA", "DELAYED": (1, nil)
        case "POSTP": (1, .postponed)
        case "CANCL": (1, .cancelled)
        case "LIVE": ((minute ?? 0) <= 45 ? 2 : 22, nil)
        case "HT": (3, nil)
        case "BREAK": (4, nil)
        case "ET": ((minute ?? 91) <= 105 ? 6 : 23, nil)
        case "PEN_LIVE": (9, nil)
        case "FT": (5, nil)
        case "AET": (7, nil)
        case "FT_PEN": (8, nil)
        default: nil
        }
    }

    /// The event types converted, as v3's type ids: `goal` 14, `own-goal` 15, `penalty` 16 (scored),
    /// `yellowcard` 19, `redcard` 20, `yellowred` 21, `pen_shootout_miss` 22, `pen_shootout_goal` 23.
    /// Any other type (`substitution`, `missed_penalty`, `var`, …) sends nothing.
    static let eventTypes: [String: Int] = [
        "goal": 14, "own-goal": 15, "penalty": 16, "yellowcard": 19, "redcard": 20, "yellowred": 21,
        "pen_shootout_miss": 22, "pen_shootout_goal": 23,
    ]
}
