import NIOCore
import ScoreStore

/// How much a live stream may cost this node, and the rules that end a stream whose client cannot
/// keep up (pure: what the client has been sent and for how long a write has waited come in).
///
/// A stream holds no queue of its own: each client has a position in the log, the hub's memory and
/// the table hold what follows it. What one client costs is one page being written and what the
/// connection buffers (bounded by its write buffer). A client that falls more than ``queue`` changes
/// behind, or does not take a write for ``writeTimeout``, is ended with a last comment line saying
/// why; it resumes with `Last-Event-ID` and misses nothing.
public struct StreamLimits: Sendable, Equatable {
    /// The most stream clients this node serves at once (`SCOREFEED_MAX_STREAM_CLIENTS`, default 1000);
    /// past it a stream is answered 503 with `Retry-After`.
    public var maxClients = 1000
    /// The most changes a client may be behind: of those committed since it connected, the ones of its
    /// stream not yet handed to its connection. Below the hub's memory, so a client that keeps up is
    /// always served from memory.
    public var queue = 1000
    /// The longest one write may wait for the client to read.
    public var writeTimeout: Duration = .seconds(20)
    /// How much is written at once, in bytes (an event larger than this goes alone).
    public var pageBytes = 16 << 10
    /// How often a stream's progress is checked against the limits.
    public var checkInterval: Duration = .milliseconds(500)
    /// Seconds a client refused for ``maxClients`` is asked to wait (`Retry-After`).
    public var retryAfterSeconds = 5

    public init() {}

    /// Why a stream is ended early.
    enum Verdict: Equatable, Sendable {
        /// The client keeps up.
        case keep
        /// More than ``queue`` changes behind.
        case tooSlow(behind: Int)
        /// A write has waited longer than ``writeTimeout``.
        case notReading(waited: Duration)

        /// The reason as a metric label.
        var label: String {
            switch self {
            case .keep: "keep"
            case .tooSlow: "too-slow"
            case .notReading: "not-reading"
            }
        }
    }

    /// The verdict on a client `behind` changes behind whose current write (if any) has waited `writing`.
    ///
    /// Being behind counts only while a write waits: then the client is what holds its stream back,
    /// not the server's own pace (a busy server catching a client up does not end it).
    func verdict(behind: Int, writing: Duration?) -> Verdict {
        guard let writing else { return .keep }
        if writing >= writeTimeout { return .notReading(waited: writing) }
        if behind > queue { return .tooSlow(behind: behind) }
        return .keep
    }

    /// The stream's last line: an SSE comment saying why it ends (`nil` for ``Verdict/keep``).
    static func comment(_ verdict: Verdict) -> String? {
        switch verdict {
        case .keep:
            return nil
        case .tooSlow(let behind):
            return ": too slow: \(behind) changes behind; reconnect with Last-Event-ID\n\n"
        case .notReading(let waited):
            return ": not reading: a write waited \(waited.components.seconds) s; reconnect with Last-Event-ID\n\n"
        }
    }

    /// One `state` event: `id:` the position, `data:` the game's state.
    static func event(position: Int, data: String) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(data.utf8.count + 40)
        buffer.writeString("id: \(position)\nevent: state\ndata: ")
        buffer.writeString(data)
        buffer.writeString("\n\n")
        return buffer
    }

    /// How many of the next events (their sizes, in order) one page holds: as many as fit in
    /// ``pageBytes``, at least one.
    func pageCount(_ sizes: some Sequence<Int>) -> Int {
        var (count, bytes) = (0, 0)
        for size in sizes {
            if count > 0 && bytes + size > pageBytes { break }
            count += 1
            bytes += size
        }
        return count
    }
}
