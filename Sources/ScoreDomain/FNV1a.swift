/// The 64-bit FNV-1a hash of `text`'s UTF-8 bytes: the content digests of pushes and Live Updates,
/// and the checksums of migration files.
public func fnv1a64(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
}
