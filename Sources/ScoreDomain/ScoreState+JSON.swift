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

    /// Decodes what ``encode(to:)`` wrote; `inning` is ignored (it is derived).
    /// - Throws: `DecodingError` for a missing key, a wrong type or a date that is not RFC 3339.
    public init(from decoder: any Decoder) throws {
        do {
            try self.init(json: try JSONValue(from: decoder))
        } catch let error as StateFieldError {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    /// The state as a JSON object: every field of ``fields`` plus `inning` (the display string).
    public var jsonValue: JSONValue {
        var members = [String: JSONValue](minimumCapacity: Self.fields.count + 1)
        for field in Self.fields { members[field.key] = field.read(self) }
        members["inning"] = .string(inning)
        return .object(members)
    }

    /// Deterministic one-line JSON of ``jsonValue`` (keys sorted, no spaces).
    public func canonicalJSON() -> String {
        jsonValue.serialized()
    }
}
