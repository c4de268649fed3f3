// Written by scripts/generate-openapi-client with the files beside it: do not edit by hand.

/// What the files of `Generated/` were made from.
enum GeneratedSpec {
    /// The SHA-256 (hex) of the `docs/openapi.yaml` they were generated from.
    static let sha256 = "f034673fb545de53cf3dc09347e9498cdcf6d960bebefffb3bcc17c904eed526"
    /// The swift-openapi-generator version that generated them.
    static let generator = "1.14.3"
}
