// Written by scripts/generate-openapi-client with the files beside it: do not edit by hand.

/// What the files of `Generated/` were made from.
enum GeneratedSpec {
    /// The SHA-256 (hex) of the `docs/openapi.yaml` they were generated from.
    static let sha256 = "0cd5d3425cbd69de8a18a2ab544394cd343255506d94787c6396b09ad4ca056d"
    /// The swift-openapi-generator version that generated them.
    static let generator = "1.14.3"
}
