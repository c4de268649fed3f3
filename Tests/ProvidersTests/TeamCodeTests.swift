import Providers
import Testing

@Suite("the code of a team a document names without an abbreviation")
struct TeamCodeTests {
    @Test(
        arguments: [
            ("Manchester United", "MUN"), ("Real Madrid Club de Fútbol", "RMC"), ("Arsenal", "ARS"),
            ("Atlético Madrid", "AMA"), ("1. FC Köln", "1FK"), ("AS", "AS"), ("---", "TEAM"),
            ("Paris Saint-Germain", "PSG"),
        ])
    func derive(_ name: String, _ code: String) {
        #expect(TeamCode.derive(name) == code)
    }

    @Test(arguments: [(7980, "T7980"), (36, "T36"), (0, "T0"), (123_456_789, "T3456789")])
    func numbered(_ id: Int, _ code: String) {
        #expect(TeamCode.numbered(id) == code)
        #expect(code.count <= 8)
    }
}
