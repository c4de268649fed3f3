import Foundation

extension ScoreState: CustomStringConvertible {
    /// The canonical JSON of the state, so logs and test failures show every field.
    public var description: String { canonicalJSON() }
}

extension ScoreState: Codable {
    private enum CodingKeys: String, CodingKey {
        case gameId, home, away, startsAt, homeScore, awayScore, inning, inningNumber, half, outs, bases, status
        case version, updatedAt
    }

    /// Encodes every stored field plus the display `inning`; dates as RFC 3339 strings
    /// (see ``rfc3339(_:)``).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(gameId, forKey: .gameId)
        try container.encode(home, forKey: .home)
        try container.encode(away, forKey: .away)
        try container.encode(rfc3339(startsAt), forKey: .startsAt)
        try container.encode(homeScore, forKey: .homeScore)
        try container.encode(awayScore, forKey: .awayScore)
        try container.encode(inning, forKey: .inning)
        try container.encode(inningNumber, forKey: .inningNumber)
        try container.encode(half, forKey: .half)
        try container.encode(outs, forKey: .outs)
        try container.encode(bases, forKey: .bases)
        try container.encode(status, forKey: .status)
        try container.encode(version, forKey: .version)
        try container.encode(rfc3339(updatedAt), forKey: .updatedAt)
    }

    /// Decodes what ``encode(to:)`` wrote; `inning` is ignored (it is derived).
    /// - Throws: `DecodingError` for a missing key, a wrong type or a date that is not RFC 3339.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func date(_ key: CodingKeys) throws -> Date {
            let text = try container.decode(String.self, forKey: key)
            guard let date = parseRFC3339(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "not an RFC 3339 timestamp: \(text)")
            }
            return date
        }
        self.init(
            gameId: try container.decode(String.self, forKey: .gameId),
            home: try container.decode(Team.self, forKey: .home),
            away: try container.decode(Team.self, forKey: .away),
            startsAt: try date(.startsAt),
            homeScore: try container.decode(Int.self, forKey: .homeScore),
            awayScore: try container.decode(Int.self, forKey: .awayScore),
            inningNumber: try container.decode(Int.self, forKey: .inningNumber),
            half: try container.decode(Half.self, forKey: .half),
            outs: try container.decode(Int.self, forKey: .outs),
            bases: try container.decodeIfPresent(Bases.self, forKey: .bases) ?? .empty,
            status: try container.decode(GameStatus.self, forKey: .status),
            version: try container.decode(Int.self, forKey: .version),
            updatedAt: try date(.updatedAt))
    }

    /// The state as a JSON object with the keys `gameId`, `home`, `away`, `startsAt`, `homeScore`,
    /// `awayScore`, `inning` (display string), `inningNumber`, `half`, `outs`, `bases`, `status`, `version`,
    /// `updatedAt`.
    public var jsonValue: JSONValue {
        .object([
            "gameId": .string(gameId),
            "home": home.jsonValue,
            "away": away.jsonValue,
            "startsAt": .string(rfc3339(startsAt)),
            "homeScore": .int(homeScore),
            "awayScore": .int(awayScore),
            "inning": .string(inning),
            "inningNumber": .int(inningNumber),
            "half": .string(half.rawValue),
            "outs": .int(outs),
            "bases": bases.jsonValue,
            "status": .string(status.rawValue),
            "version": .int(version),
            "updatedAt": .string(rfc3339(updatedAt)),
        ])
    }

    /// Deterministic one-line JSON of ``jsonValue`` (keys sorted, no spaces).
    public func canonicalJSON() -> String {
        jsonValue.serialized()
    }
}
