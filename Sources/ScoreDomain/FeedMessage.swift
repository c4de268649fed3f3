import Foundation

/// One message of the canonical feed: who sent it (`id`), which game, when, and what happened.
public struct FeedMessage: Sendable, Equatable {
    /// The provider's unique message id; the idempotency key of the event log.
    public var id: String
    /// The game this message is about, 1–64 characters of `[A-Za-z0-9._:-]` (``GameIdRule``).
    public var gameId: String
    /// When the provider says it happened.
    public var at: Date
    /// What happened.
    public var event: ScoreEvent
    /// Whether `at` was derived by a documented rule (a converted document gave no wall clock for it:
    /// the start plus the game time, say) rather than stated by the provider.
    public var atDerived: Bool

    /// Creates a message.
    public init(id: String, gameId: String, at: Date, event: ScoreEvent, atDerived: Bool = false) {
        self.id = id
        self.gameId = gameId
        self.at = at
        self.event = event
        self.atDerived = atDerived
    }

    /// The message as a JSON object in the canonical feed format, with defaults written out.
    public var jsonValue: JSONValue {
        var members: JSONObject = [
            "id": .string(id),
            "gameId": .string(gameId),
            "at": .string(rfc3339(at)),
            "type": .string(event.type),
        ]
        if atDerived { members["atDerived"] = .bool(true) }
        switch event {
        case .gameScheduled(let home, let away, let startsAt, let setup):
            members["home"] = home.jsonValue
            members["away"] = away.jsonValue
            members["startsAt"] = .string(rfc3339(startsAt))
            if setup.sport != .baseball {
                members["sport"] = .string(setup.sport.rawValue)
                members["competition"] = .string(setup.rules.competition)
                members["rules"] = setup.rules.overridesJSON
            }
        case .gameStarted:
            break
        case .inningChanged(let inning, let half):
            members["inning"] = .int(inning)
            members["half"] = .string(half.rawValue)
        case .runScored(let team, let runs):
            members["team"] = .string(team.rawValue)
            members["runs"] = .int(runs)
        case .outRecorded(let outs):
            members["outs"] = .int(outs)
        case .basesChanged(let bases):
            members["first"] = .bool(bases.first)
            members["second"] = .bool(bases.second)
            members["third"] = .bool(bases.third)
        case .scoreCorrected(let homeScore, let awayScore):
            members["homeScore"] = .int(homeScore)
            members["awayScore"] = .int(awayScore)
        case .statusChanged(let status), .gameEnded(let status):
            members["status"] = .string(status.rawValue)
        default:
            writeClockSportFields(to: &members)
        }
        return .object(members)
    }

    /// Deterministic one-line JSON of the message (keys sorted, no spaces, `/` not escaped,
    /// defaults such as `"runs":1` written out). ``FeedParser`` reads it
    /// back to an equal message (timestamps are kept to the millisecond).
    public func canonicalJSON() -> String {
        jsonValue.serialized()
    }

    /// Whether `other` is the same message: equal canonical forms (game, time, event and every
    /// field, defaults written out, timestamps to the millisecond). A message id stands for one
    /// message: the same id with the same content is a duplicate, with other content a conflict.
    public func hasSameContent(as other: FeedMessage) -> Bool {
        self == other || canonicalJSON() == other.canonicalJSON()
    }
}

extension Team {
    /// `{"code":…,"logo":…,"name":…}`.
    public var jsonValue: JSONValue {
        .object(["code": .string(code), "name": .string(name), "logo": .string(logo)])
    }
}
