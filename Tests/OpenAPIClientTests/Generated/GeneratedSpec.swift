// Written by scripts/generate-openapi-client with the files beside it: do not edit by hand.

/// What the files of `Generated/` were made from.
enum GeneratedSpec {
    /// The SHA-256 (hex) of the `docs/openapi.yaml` they were generated from.
    static let sha256 = "6fb638b12003d87ede4795730add8613645a1b142629505eec1ac7d5c0a88d71"
    /// The swift-openapi-generator version that generated them.
    static let generator = "1.14.3"
}
