import Foundation

/// The rule for a team a document gives without an abbreviation (docs/providers.md): the name's
/// letters and digits folded to ASCII capitals; with three or more words, the first letter of each of
/// the first three; with two, the first letter of the first and the first two of the second; with one,
/// its first three. `"Manchester United"` → `MUN`, `"Real Madrid Club de Fútbol"` → `RMC`,
/// `"Arsenal"` → `ARS`. A name with no letter or digit gives `TEAM`.
public enum TeamCode {
    public static func derive(_ name: String) -> String {
        let folded = name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).uppercased()
        let words = folded.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map(String.init)
        let code: String
        switch words.count {
        case 0: return "TEAM"
        case 1: code = String(words[0].prefix(3))
        case 2: code = String(words[0].prefix(1)) + String(words[1].prefix(2))
        default: code = words.prefix(3).map { String($0.prefix(1)) }.joined()
        }
        return code
    }

    /// The code of a team a document names only by its provider id (docs/providers.md,
    /// "sportmonks-v2"): `T` and the id's last seven digits (`7980` → `T7980`).
    public static func numbered(_ id: Int) -> String {
        "T" + String(String(id.magnitude).suffix(7))
    }
}
