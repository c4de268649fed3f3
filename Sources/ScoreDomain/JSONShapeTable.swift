/// The object shapes one parse has made (``JSONObjectShape``), so that the objects with the same keys in
/// the same order (every play of a play-by-play) share one: found by the fingerprint of their keys'
/// fingerprints, in a direct-mapped table (a shape that lands on a slot taken by another replaces it).
struct JSONShapeTable {
    private struct Entry {
        var fingerprint: UInt64
        var shape: JSONObjectShape?
    }

    private static let slotBits = 6
    private var entries: [Entry] = []

    /// The fingerprint of an object's keys from their fingerprints, in order.
    static func fingerprint(_ keys: some Sequence<UInt64>) -> UInt64 {
        keys.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ $1) &* 0x0000_0100_0000_01B3 }
    }

    /// The shape last remembered with `fingerprint` (whose keys the caller compares with its own).
    func shape(_ fingerprint: UInt64) -> JSONObjectShape? {
        guard !entries.isEmpty else { return nil }
        let entry = entries[Self.slot(fingerprint)]
        return entry.fingerprint == fingerprint ? entry.shape : nil
    }

    mutating func remember(_ shape: JSONObjectShape, _ fingerprint: UInt64) {
        if entries.isEmpty { entries = Array(repeating: Entry(fingerprint: 0, shape: nil), count: 1 << Self.slotBits) }
        entries[Self.slot(fingerprint)] = Entry(fingerprint: fingerprint, shape: shape)
    }

    private static func slot(_ fingerprint: UInt64) -> Int {
        Int(truncatingIfNeeded: (fingerprint &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - slotBits))
    }
}
