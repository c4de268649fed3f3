// Written by scripts/generate-openapi-client with the files beside it: do not edit by hand.

/// What the files of `Generated/` were made from.
enum GeneratedSpec {
    /// The SHA-256 (hex) of the `docs/openapi.yaml` they were generated from.
    static let sha256 = "7762272d1c2d3d3d1757277771dc33b1d981c8f4160ec4e6e66e4cd52dce0c5c"
    /// The swift-openapi-generator version that generated them.
    static let generator = "1.14.3"
}
