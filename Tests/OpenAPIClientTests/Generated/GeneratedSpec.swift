// Written by scripts/generate-openapi-client with the files beside it: do not edit by hand.

/// What the files of `Generated/` were made from.
enum GeneratedSpec {
    /// The SHA-256 (hex) of the `docs/openapi.yaml` they were generated from.
    static let sha256 = "f55afdb7bb517846b3c39b6223e637d155e07e33eea1963125496dc17a91f9d4"
    /// The swift-openapi-generator version that generated them.
    static let generator = "1.14.3"
}
