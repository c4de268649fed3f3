import Crypto
import Foundation
import ScoreFeedTesting
import Testing

@Suite("Generated/ is the client of docs/openapi.yaml as it is")
struct GeneratedSpecTests {
    @Test("the description the client was generated from is docs/openapi.yaml, byte for byte (SHA-256)")
    func upToDate() throws {
        let document = try Data(contentsOf: repositoryRoot.appendingPathComponent("docs/openapi.yaml"))
        #expect(
            hex(SHA256.hash(data: document)) == GeneratedSpec.sha256,
            """
            docs/openapi.yaml changed since Tests/OpenAPIClientTests/Generated/ was generated from it: \
            run scripts/generate-openapi-client and commit Generated/
            """)
    }
}
