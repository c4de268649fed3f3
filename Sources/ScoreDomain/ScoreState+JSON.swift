import Foundation

extension ScoreState: CustomStringConvertible {
    /// The canonical JSON of the state, so logs and test failures show every field.
    public var description: String { canonicalJSON() }
}

extension ScoreState: Codable {
    /// Encodes ``jsonValue``: every stored field plus the display `inning`, dates as RFC 3339.
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }

    /// Decodes what ``encode(to:)`` wrote; `inning`, `period` and `periods` are ignored (derived).
    /// - Throws: `DecodingError` for a missing key, a wrong type or a date that is not RFC 3339.
    public init(from decoder: any Decoder) throws {
        do {
            try self.init(json: try JSONValue(from: decoder))
        } catch let error as StateFieldError {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    /// The state as a JSON object: every field of ``fields`` plus the derived `inning` (baseball's
    /// display string), `period` (the label in every sport) and `periods` (the line score).
    public var jsonValue: JSONValue {
        var members = JSONObject()
        for field in Self.fields {
            if let value = field.read(self) { members[field.key] = value }
        }
        if sport == .baseball { members["inning"] = .string(inning) }
        members["period"] = .string(periodLabel)
        members["periods"] = periodsJSON
        return .object(members)
    }

    /// Deterministic one-line JSON of ``jsonValue`` (keys sorted, no spaces).
    public func canonicalJSON() -> String {
        jsonValue.serialized()
    }
}
