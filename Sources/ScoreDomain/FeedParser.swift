import Foundation

/// Parses and validates messages of the canonical feed format (one JSON object per message,
/// files as JSON Lines). See `docs/feed-format.md` for the format.
public enum FeedParser {
    /// Parses one message from UTF-8 JSON bytes.
    /// - Parameters:
    ///   - data: the JSON text of one message (a leading UTF-8 byte order mark is ignored).
    ///   - line: the 1-based line number in the input, copied into any error.
    /// - Throws: ``FeedError`` naming the first bad field.
    public static func parse(_ data: Data, line: Int? = nil) throws(FeedError) -> FeedMessage {
        let json = data.withUnsafeBytes { raw in
            parseJSON(
                UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count))
        }
        return try message(from: json, line: line)
    }

    /// Parses one message from its JSON text (a `String` or a `Substring` of a larger text).
    /// - Parameters:
    ///   - text: the JSON text of one message.
    ///   - line: the 1-based line number in the input, copied into any error.
    /// - Throws: ``FeedError`` naming the first bad field.
    public static func parse(_ text: some StringProtocol, line: Int? = nil) throws(FeedError) -> FeedMessage {
        let json =
            text.utf8.withContiguousStorageIfAvailable { parseJSON($0) }
            ?? {
                var copy = String(text)
                return copy.withUTF8 { parseJSON($0) }
            }()
        return try message(from: json, line: line)
    }

    /// Parses a message the event log stored: as `parse(_:line:)`, without the
    /// limits on input dates (``InputRules/instants``), so an event stored before them stays readable.
    /// - Throws: ``FeedError`` naming the first bad field.
    public static func parse(stored text: String) throws(FeedError) -> FeedMessage {
        var copy = text
        return try message(from: copy.withUTF8 { parseJSON($0) }, line: nil, limitsDates: false)
    }

    /// Validates an already parsed JSON value as a message.
    /// - Throws: ``FeedError`` naming the first bad field.
    public static func parse(jsonValue: JSONValue, line: Int? = nil) throws(FeedError) -> FeedMessage {
        try message(from: .success(jsonValue), line: line)
    }

    /// Parses JSON Lines: every line that is not blank is one message. Lines may end in LF or CRLF.
    /// - Returns: one entry per non-blank line, with its 1-based line number and its message or error.
    public static func parseLines(_ data: Data) -> [(line: Int, result: Result<FeedMessage, FeedError>)] {
        var results: [(line: Int, result: Result<FeedMessage, FeedError>)] = []
        forEachLine(data) { results.append(($0, $1)) }
        return results
    }

    /// Parses JSON Lines one line at a time, without holding the others: `body` gets each non-blank
    /// line's 1-based number and its message or error, in order.
    public static func forEachLine(
        _ data: Data, _ body: (_ line: Int, _ result: Result<FeedMessage, FeedError>) -> Void
    ) {
        var lineNumber = 0
        var start = data.startIndex
        while start <= data.endIndex {
            let end = data[start...].firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
            lineNumber += 1
            var lineBytes = data[start..<end]
            if lineBytes.last == UInt8(ascii: "\r") { lineBytes = lineBytes.dropLast() }
            let isBlank = lineBytes.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            if !isBlank {
                let number = lineNumber
                body(number, Result { () throws(FeedError) in try parse(Data(lineBytes), line: number) })
            }
            start = end + 1
        }
    }

    // MARK: - Implementation

    static func parseJSON(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, FeedError> {
        var bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            bytes = UnsafeBufferPointer(rebasing: bytes[3...])
        }
        do {
            return .success(try JSONParser.parse(bytes))
        } catch {
            return .failure(.invalidJSON(error.description))
        }
    }

    private static func message(from json: Result<JSONValue, FeedError>, line: Int?, limitsDates: Bool = true)
        throws(FeedError) -> FeedMessage
    {
        var messageId: String?
        do throws(FeedError) {
            let value = try json.get()
            guard case .object(let members) = value else { throw FeedError.notAnObject(found: kind(of: value)) }
            let fields = FeedFields(members, limitsDates: limitsDates)
            let id = try fields.string("id", length: 1...200, rule: "must be a string of 1 to 200 characters")
            messageId = id
            let gameId = try fields.string(
                "gameId", length: 1...64, allowed: GameIdRule.isCharacter,
                rule: GameIdRule.text)
            let at = try fields.timestamp("at")
            let event = try self.event(from: fields, at: at)
            return FeedMessage(
                id: id, gameId: gameId, at: at, event: event, atDerived: try fields.boolean("atDerived", default: false)
            )
        } catch var error {
            error.line = line
            error.messageId = messageId
            throw error
        }
    }

    /// - Parameter at: the message's instant: a `game.scheduled` without `startsAt` starts then.
    private static func event(from fields: FeedFields, at: Date) throws(FeedError) -> ScoreEvent {
        guard let typeValue = fields.members["type"] else { throw .missing("type") }
        guard case .string(let type) = typeValue else {
            throw .invalid("type", "must be a string such as \"run.scored\"")
        }
        switch type {
        case "game.scheduled":
            return .gameScheduled(
                home: try fields.team("home"), away: try fields.team("away"),
                startsAt: fields.members["startsAt"] == nil ? at : try fields.timestamp("startsAt"),
                setup: try fields.setup())
        case "game.started":
            return .gameStarted
        case "inning.changed":
            return .inningChanged(
                inning: try fields.integer("inning", in: 1...99), half: try fields.choice("half", of: Half.allCases))
        case "run.scored":
            return .runScored(
                team: try fields.choice("team", of: [Side.home, .away]),
                runs: try fields.integer("runs", in: 1...4, default: 1))
        case "out.recorded":
            return .outRecorded(outs: try fields.integer("outs", in: 1...3, default: 1))
        case "bases.changed":
            return .basesChanged(
                Bases(
                    first: try fields.boolean("first", default: false),
                    second: try fields.boolean("second", default: false),
                    third: try fields.boolean("third", default: false)))
        case "score.corrected":
            return .scoreCorrected(
                homeScore: try fields.integer("homeScore", in: 0...999),
                awayScore: try fields.integer("awayScore", in: 0...999))
        case "status.changed":
            return .statusChanged(try fields.choice("status", of: [GameStatus.inprogress, .delayed, .suspended]))
        case "game.ended":
            return .gameEnded(try fields.choice("status", of: [GameStatus.closed, .cancelled, .postponed]))
        default:
            guard let event = try clockSportEvent(type, fields) else { throw .unknownType(type) }
            return event
        }
    }

    static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
