import Foundation
import NIOConcurrencyHelpers

/// The broadcast channels of a running local server (one environment): what Apple's channel
/// management API keeps, with its limit.
public final class SandboxChannels: Sendable {
    /// A channel: its storage policy (0 = No Message Storage, 1 = Most Recent Message Stored).
    public struct Channel: Sendable, Hashable {
        public var id: String
        public var storagePolicy: Int
    }

    /// At most this many channels at once (Apple: 10,000 per environment).
    public let maximum: Int
    private let channels = NIOLockedValueBox([String: Channel]())

    init(maximum: Int) {
        self.maximum = maximum
    }

    /// A new channel with a random id (base64 of 16 random bytes), `nil` when the limit is reached.
    func create(storagePolicy: Int) -> Channel? {
        channels.withLockedValue { channels in
            guard channels.count < maximum else { return nil }
            var bytes = [UInt8](repeating: 0, count: 16)
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255) }
            let channel = Channel(id: Data(bytes).base64EncodedString(), storagePolicy: storagePolicy)
            channels[channel.id] = channel
            return channel
        }
    }

    /// The channel with this id, if it exists.
    public func channel(_ id: String) -> Channel? { channels.withLockedValue { $0[id] } }

    /// Deletes the channel; `false` when it does not exist.
    func delete(_ id: String) -> Bool { channels.withLockedValue { $0.removeValue(forKey: id) != nil } }

    /// Every channel id, sorted.
    public func all() -> [String] { channels.withLockedValue { $0.keys.sorted() } }
}
