import ScoreDomain

/// An RFC 6901 JSON Pointer: `""` is the whole document, `/a/0/b` names member `a`, element 0, member `b`.
///
/// In a token `~1` stands for `/` and `~0` for `~`; any other `~` sequence is invalid. For arrays a token
/// is an index written in decimal without leading zeros, or `-` (the position after the last element,
/// only meaningful for `add`).
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The unescaped reference tokens, outermost first; empty for the whole document.
    public var tokens: [String]
    /// The most tokens a parsed pointer may have (a bound on how deep a patch can reach).
    public static let maximumTokens = 256

    /// A pointer made of already unescaped tokens.
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses the textual form of a pointer.
    /// - Parameter text: `""` or a string starting with `/`.
    /// - Throws: ``JSONPatchError`` with code `invalid-pointer`.
    public init(parsing text: String) throws(JSONPatchError) {
        guard !text.isEmpty else {
            self.tokens = []
            return
        }
        guard text.hasPrefix("/") else {
            throw JSONPatchError(.invalidPointer, "pointer \"\(text)\" must be empty or start with '/'")
        }
        // Unicode scalars, not characters: a '/' or '~' followed by a combining mark is still one.
        var tokens: [String] = []
        for raw in text.unicodeScalars.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = String.UnicodeScalarView()
            var iterator = raw.makeIterator()
            while let scalar = iterator.next() {
                guard scalar == "~" else {
                    token.append(scalar)
                    continue
                }
                switch iterator.next() {
                case "0": token.append("~")
                case "1": token.append("/")
                default: throw JSONPatchError(.invalidPointer, "pointer \"\(text)\" has a '~' not followed by 0 or 1")
                }
            }
            tokens.append(String(token))
            guard tokens.count <= Self.maximumTokens else {
                throw JSONPatchError(.invalidPointer, "pointer has more than \(Self.maximumTokens) tokens")
            }
        }
        self.tokens = tokens
    }

    /// The textual form, with `~` written `~0` and `/` written `~1`.
    public var description: String {
        tokens.map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }
            .joined()
    }

    /// `true` when `other` lies strictly inside the value this pointer names.
    public func isProperPrefix(of other: JSONPointer) -> Bool {
        other.tokens.count > tokens.count && Array(other.tokens.prefix(tokens.count)) == tokens
    }

    /// The value this pointer names in `document`, or `nil` when there is none.
    public func resolve(in document: JSONValue) -> JSONValue? {
        var current = document
        for token in tokens {
            switch current {
            case .object(let members):
                guard let next = members[token] else { return nil }
                current = next
            case .array(let elements):
                guard let index = JSONPointer.index(token), index < elements.count else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The array index a token stands for: decimal digits without leading zeros (`"0"` itself is fine).
    static func index(_ token: String) -> Int? {
        guard !token.isEmpty, token.utf8.allSatisfy({ (48...57).contains($0) }),
            token == "0" || !token.hasPrefix("0")
        else { return nil }
        return Int(token)
    }
}
