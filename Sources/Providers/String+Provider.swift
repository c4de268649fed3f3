extension String {
    /// The first `count` characters: the string itself when its UTF-8 is no longer (no character walk,
    /// no copy), as for nearly every name a document gives.
    func clipped(to count: Int) -> String {
        utf8.count <= count ? self : String(prefix(count))
    }

    /// Whether every byte is an ASCII letter or digit, or `extra` (byte by byte: Character's
    /// properties are a Unicode table lookup each).
    func isASCIIAlphanumeric(or extra: UInt8? = nil) -> Bool {
        utf8.allSatisfy { UInt8.isASCIIAlphanumeric($0) || $0 == extra }
    }

    /// Whether it is a team code: 1–8 ASCII letters or digits.
    var isTeamCode: Bool {
        (1...8).contains(utf8.count) && isASCIIAlphanumeric()
    }
}

extension UInt8 {
    static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }
}
