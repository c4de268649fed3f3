import Hummingbird

/// `GET /openapi.yaml`: the API description (`docs/openapi.yaml`, as built into the binary).
enum OpenAPIRoute {
    static func handle(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/yaml", .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: EmbeddedOpenAPI.yaml)))
    }
}
