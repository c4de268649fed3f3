import Crypto
import CryptoExtras
import Foundation
import JOSE
import Testing

@testable import FCM

@Suite("OAuth JWT assertion")
struct JWTTests {
    static func parts(_ jwt: String) -> [String] {
        jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func headerAndClaims() throws {
        let jwt = try FCMJWT.make(Fixture.account, issuedAt: 1_700_000_000, key: Fixture.key)
        let parts = Self.parts(jwt)
        #expect(parts.count == 3)
        #expect(!jwt.contains("=") && !jwt.contains("+") && !jwt.contains("/"))
        let header = try #require(Base64URL.decode(parts[0]))
        let claims = try #require(Base64URL.decode(parts[1]))
        #expect(
            String(decoding: header, as: UTF8.self)
                == #"{"alg":"RS256","typ":"JWT","kid":"0123456789abcdef0123456789abcdef01234567"}"#)
        #expect(
            String(decoding: claims, as: UTF8.self)
                == #"{"iss":"scorefeed@example-project.iam.gserviceaccount.com","#
                + #""scope":"https://www.googleapis.com/auth/firebase.messaging","#
                + #""aud":"https://oauth2.googleapis.com/token","iat":1700000000,"exp":1700003600}"#)
    }

    @Test func signatureVerifiesWithPublicKey() throws {
        let jwt = try FCMJWT.make(Fixture.account, issuedAt: 1_700_000_000, key: Fixture.key)
        let parts = Self.parts(jwt)
        let signature = _RSA.Signing.RSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
        #expect(signature.rawRepresentation.count == 256)
        let input = Data((parts[0] + "." + parts[1]).utf8)
        let publicKey = Fixture.key.publicKey
        #expect(publicKey.isValidSignature(signature, for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5))
        let other = Data((parts[0] + "." + parts[0]).utf8)
        #expect(!publicKey.isValidSignature(signature, for: SHA256.hash(data: other), padding: .insecurePKCS1v1_5))
    }

    @Test(arguments: [
        ([UInt8](), ""), ([0x66], "Zg"), ([0x66, 0x6f], "Zm8"), ([0x66, 0x6f, 0x6f], "Zm9v"), ([0xfb, 0xff], "-_8"),
    ])
    func base64URL(_ bytes: [UInt8], _ expected: String) {
        #expect(Base64URL.encode(bytes) == expected)
        #expect(Base64URL.decode(expected) == Data(bytes))
    }
}
