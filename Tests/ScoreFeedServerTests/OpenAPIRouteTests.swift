import Foundation
import ScoreFeedTesting
import Testing

@testable import ScoreFeedServer

@Suite("GET /openapi.yaml: the API description, built into the binary")
struct OpenAPIRouteTests {
    /// `docs/openapi.yaml` as it is on disk.
    static func document() throws -> Data {
        try Data(contentsOf: repositoryRoot.appendingPathComponent("docs/openapi.yaml"))
    }

    @Test("the embedded description is docs/openapi.yaml byte for byte")
    func embeddedMatchesDocs() throws {
        #expect(
            Data(EmbeddedOpenAPI.yaml.utf8) == (try Self.document()),
            "docs/openapi.yaml changed since it was embedded: run scripts/embed-openapi")
    }

    @Test("GET /openapi.yaml answers the description as application/yaml")
    func served() async throws {
        let document = try Self.document()
        try await withServer { server in
            let reply = try await server.request(.GET, "/openapi.yaml")
            #expect(reply.status == 200)
            #expect(reply.headers.first(name: "Content-Type") == "application/yaml")
            #expect(Data(reply.body.utf8) == document, "the served description differs from docs/openapi.yaml")
        }
    }
}
