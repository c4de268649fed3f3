import APNs
import Foundation
import Testing

@Suite("apns-id text without sscanf")
struct UUIDTextTests {
    @Test("reads and writes what Foundation does, either case")
    func roundTrip() {
        for _ in 0..<1000 {
            let id = UUID()
            #expect(id.lowercasedText == id.uuidString.lowercased())
            #expect(UUID(text: id.uuidString) == id)
            #expect(UUID(text: id.lowercasedText) == id)
            #expect(UUID(text: id.uuidString[...]) == id)
        }
    }

    @Test(
        "refuses what is not the 36-character form",
        arguments: [
            "", "not-a-uuid", "123e4567-e89b-12d3-a456-42661417400", "123e4567-e89b-12d3-a456-4266141740000",
            "123e4567e89b-12d3-a456-426614174000-", "123e4567-e89b-12d3-a456-42661417400g",
            "123e4567_e89b_12d3_a456_426614174000",
        ])
    func refuses(_ text: String) {
        #expect(UUID(text: text) == nil)
        #expect(UUID(uuidString: text) == nil)
    }
}
