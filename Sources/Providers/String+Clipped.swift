extension String {
    /// The first `count` characters: the string itself when its UTF-8 is no longer (no character walk,
    /// no copy), as for nearly every name a document gives.
    func clipped(to count: Int) -> String {
        utf8.count <= count ? self : String(prefix(count))
    }
}
