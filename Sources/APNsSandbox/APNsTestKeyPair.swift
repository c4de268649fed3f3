import Crypto

/// A fresh P-256 key pair for tests: the private half as `.p8`-style PEM (PKCS#8, for the client) and
/// the public half as PEM (for ``APNsSandbox/Configuration/publicKeyPEM``).
public struct APNsTestKeyPair: Sendable, Hashable {
    /// `-----BEGIN PRIVATE KEY-----` PKCS#8 PEM, the format of Apple's `.p8` files.
    public let privateKeyPEM: String
    /// `-----BEGIN PUBLIC KEY-----` PEM.
    public let publicKeyPEM: String

    /// Generates a new random key pair.
    public init() {
        let key = P256.Signing.PrivateKey()
        self.privateKeyPEM = key.pemRepresentation
        self.publicKeyPEM = key.publicKey.pemRepresentation
    }
}
