/// The object keys one parse has read, so that a key that recurs (every play of a document has the
/// same dozen) is made into a `String` once: later occurrences are a comparison of two words and a
/// copy of the first one's `String` (for a key of 16 bytes or more, one heap text shared by all).
///
/// Open addressing by the key's fingerprint, a few slots probed; when they are all taken by other keys,
/// the first is replaced. A document has up to a few hundred distinct keys: 1,024 slots for a large one
/// (a direct-mapped table of 256 had two keys of a play on one slot, each evicting the other, so a
/// third of the keys were made into a `String` again), 64 for a small one (filling more costs more than
/// it saves).
struct JSONKeyTable {
    private struct Entry {
        /// The key's first eight bytes (all of them, packed, when it is shorter).
        var head: UInt64
        /// Its last eight bytes (0 when it is shorter than eight).
        var tail: UInt64
        var count: Int
        var key: String
        /// Whether the parse's ``JSONMemberFilter`` keeps members of this name.
        var kept: JSONMemberKeeping
    }

    private let slotBits: Int
    private static let probes = 4
    private var entries: [Entry] = []
    /// The members kept (`nil`: all of them).
    private let filter: JSONMemberFilter?

    init(filter: JSONMemberFilter?, documentSize: Int) {
        self.filter = filter
        slotBits = documentSize < 16_384 ? 6 : 10
    }

    /// Whether members named `key` are kept.
    func keeps(_ key: String) -> JSONMemberKeeping {
        filter?.keeping(key) ?? .keep
    }

    /// The `String` of `run` (ASCII without escapes: the caller checked), its fingerprint, and whether
    /// the filter keeps members of that name (decided once per name, like the `String`).
    mutating func key(_ run: UnsafeBufferPointer<UInt8>) -> (key: String, fingerprint: UInt64, kept: JSONMemberKeeping)
    {
        let (head, tail) = Self.words(run)
        let fingerprint = Self.mix(head: head, tail: tail, count: run.count)
        if entries.isEmpty {
            entries = Array(repeating: Entry(head: 0, tail: 0, count: -1, key: "", kept: .skip), count: 1 << slotBits)
        }
        let mask = (1 << slotBits) - 1
        let home = Int(truncatingIfNeeded: fingerprint >> UInt64(64 - slotBits))
        var slot = home
        let found: Int? = entries.withUnsafeBufferPointer { table in
            // Fields read in place: a copy of an entry would retain and release its `String`.
            for probe in 0..<Self.probes {
                slot = (home + probe) & mask
                if table[slot].count < 0 { return nil }  // empty: the key is new
                // Head, tail and count are the whole key up to 16 bytes; a longer one is compared in full.
                if table[slot].head == head, table[slot].tail == tail, table[slot].count == run.count,
                    run.count <= 16
                        || table[slot].key.utf8.withContiguousStorageIfAvailable({ $0.elementsEqual(run) }) == true
                {
                    return slot
                }
            }
            slot = home  // all taken: replace the first
            return nil
        }
        if let found { return (entries[found].key, fingerprint, entries[found].kept) }
        let key = String(decoding: run, as: UTF8.self)
        let kept = keeps(key)
        entries[slot] = Entry(head: head, tail: tail, count: run.count, key: key, kept: kept)
        return (key, fingerprint, kept)
    }

    /// The fingerprint of a key read otherwise (with escapes or non-ASCII bytes): equal keys have equal
    /// fingerprints, whichever way they were read.
    static func fingerprint(_ key: String) -> UInt64 {
        func of(_ run: UnsafeBufferPointer<UInt8>) -> UInt64 {
            let (head, tail) = words(run)
            return mix(head: head, tail: tail, count: run.count)
        }
        return key.utf8.withContiguousStorageIfAvailable(of) ?? Array(key.utf8).withUnsafeBufferPointer(of)
    }

    /// The first and last eight bytes of `run`; all of them in `head` when it is shorter.
    private static func words(_ run: UnsafeBufferPointer<UInt8>) -> (head: UInt64, tail: UInt64) {
        guard run.count >= 8 else { return (run.reduce(0) { $0 << 8 | UInt64($1) }, 0) }
        let raw = UnsafeRawBufferPointer(run)
        return (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: run.count - 8, as: UInt64.self))
    }

    private static func mix(head: UInt64, tail: UInt64, count: Int) -> UInt64 {
        (head ^ (tail &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(truncatingIfNeeded: count)) &* 0xFF51_AFD7_ED55_8CCD
    }
}
