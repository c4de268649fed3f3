import Foundation
import ScoreDomain

/// One line of a Sportradar push feed: newline-delimited JSON objects on a long-lived chunked HTTP
/// answer, a payload per change (`{"payload":{"game":{…},"event":{…}},"metadata":{"operation":…}}`)
/// and `{"heartbeat":{"interval":5000}}` every 5 s when nothing happens.
public enum PushLine: Sendable, Equatable {
    /// The connection is alive.
    case heartbeat
    /// A change of the game `game` (the id the game's REST feeds take): `create`, `update` or `delete`.
    case payload(game: String, operation: String?)
    /// A JSON object of another kind, or a payload without a game (ignored).
    case other
    /// Not JSON (logged, ignored).
    case unreadable

    /// Reads one line; `nil` for a blank one.
    public static func parse(_ line: some Collection<UInt8>) -> PushLine? {
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return nil }
        guard case .object(let root)? = try? JSONValue.parse(Data(line)) else { return .unreadable }
        if root["heartbeat"] != nil { return .heartbeat }
        guard case .object(let payload)? = root["payload"] else { return .other }
        var operation: String?
        if case .object(let metadata)? = root["metadata"], case .string(let text)? = metadata["operation"] {
            operation = text
        }
        for key in ["game", "sport_event"] {
            if case .object(let game)? = payload[key], case .string(let id)? = game["id"], !id.isEmpty {
                return .payload(game: id, operation: operation)
            }
        }
        return .other
    }
}

/// Splits a byte stream into lines (LF, with an optional CR), keeping a partial line for the next chunk.
public struct LineSplitter: Sendable {
    private var pending: [UInt8] = []
    /// The longest line kept (a push payload is a few KB; a longer one is a broken stream).
    public let maximumLine: Int

    public init(maximumLine: Int = 4 * 1024 * 1024) { self.maximumLine = maximumLine }

    /// The lines `chunk` completes; throws ``Overflow`` when a line grows past ``maximumLine``.
    public mutating func lines(_ chunk: some Sequence<UInt8>) throws(Overflow) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        for byte in chunk {
            if byte == 0x0A {
                if pending.last == 0x0D { pending.removeLast() }
                lines.append(pending)
                pending.removeAll(keepingCapacity: true)
            } else {
                pending.append(byte)
                if pending.count > maximumLine { throw Overflow() }
            }
        }
        return lines
    }

    /// A line longer than the limit.
    public struct Overflow: Error, Sendable {}
}
