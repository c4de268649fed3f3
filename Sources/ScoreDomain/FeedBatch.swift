import Foundation

/// One message of a batch (an HTTP request body): where it was, and the message or why it is bad.
public struct BatchEntry: Sendable {
    /// 0-based position of the message in the batch.
    public var index: Int
    /// 1-based line in the body, for NDJSON.
    public var line: Int?
    public var result: Result<FeedMessage, FeedError>
}

extension FeedParser {
    /// Parses a JSON body holding one message object or an array of message objects.
    ///
    /// - Returns: one entry per message, each parsed on its own, so every bad one is reported.
    /// - Throws: ``FeedError`` when the body is not JSON, or neither an object nor an array.
    public static func parseBatch(json data: Data) throws(FeedError) -> [BatchEntry] {
        var entries: [BatchEntry] = []
        try forEachEntry(json: data) { entries.append($0) }
        return entries
    }

    /// Parses an NDJSON body: every line that is not blank is one message.
    public static func parseBatch(ndjson data: Data) -> [BatchEntry] {
        var entries: [BatchEntry] = []
        forEachEntry(ndjson: data) { entries.append($0) }
        return entries
    }

    /// Like ``parseBatch(json:)``, handing each entry to `body` instead of collecting them.
    public static func forEachEntry(json data: Data, _ body: (BatchEntry) -> Void) throws(FeedError) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(data)
        } catch {
            throw FeedError.invalidJSON(error.description)
        }
        switch value {
        case .object:
            body(entry(0, nil, value))
        case .array(let items):
            for (index, item) in items.enumerated() { body(entry(index, nil, item)) }
        default:
            throw FeedError(
                reason: "the body must be a message object or an array of them, found \(kind(of: value))",
                code: "not-an-object")
        }
    }

    /// Like ``parseBatch(ndjson:)``, one line at a time: a body of many bad lines costs no more
    /// memory than its own bytes.
    public static func forEachEntry(ndjson data: Data, _ body: (BatchEntry) -> Void) {
        var index = 0
        forEachLine(data) { line, result in
            body(BatchEntry(index: index, line: line, result: result))
            index += 1
        }
    }

    private static func entry(_ index: Int, _ line: Int?, _ value: JSONValue) -> BatchEntry {
        BatchEntry(index: index, line: line, result: Result { () throws(FeedError) in try parse(jsonValue: value) })
    }
}
