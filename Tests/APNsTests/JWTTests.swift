import APNs
import APNsSandbox
import Crypto
import Foundation
import JOSE
import Testing

@Suite("Provider token (JWT)")
struct JWTTests {
    static func decodeSegment(_ text: Substring) throws -> [UInt8] {
        Array(try #require(Base64URL.decode(text)))
    }

    static func makeProvider(_ clock: TestClock) throws -> APNsTokenProvider {
        let key = try P256.Signing.PrivateKey(pemRepresentation: Fixture.keys.privateKeyPEM)
        return APNsTokenProvider(signingKey: key, keyId: Fixture.keyId, teamId: Fixture.teamId, clock: { clock.now })
    }

    @Test func structureAndSignature() throws {
        let key = try P256.Signing.PrivateKey(pemRepresentation: Fixture.keys.privateKeyPEM)
        let jwt = try APNsJWT.make(keyId: "ABC123DEFG", teamId: "DEF123GHIJ", issuedAt: 1_700_000_000, signingKey: key)
        let segments = jwt.split(separator: ".", omittingEmptySubsequences: false)
        #expect(segments.count == 3)
        #expect(!jwt.contains("="))
        #expect(!jwt.contains("+") && !jwt.contains("/"))
        #expect(
            String(decoding: try Self.decodeSegment(segments[0]), as: UTF8.self)
                == #"{"alg":"ES256","kid":"ABC123DEFG"}"#)
        #expect(
            String(decoding: try Self.decodeSegment(segments[1]), as: UTF8.self)
                == #"{"iat":1700000000,"iss":"DEF123GHIJ"}"#)
        let signature = try Self.decodeSegment(segments[2])
        #expect(signature.count == 64)
        let publicKey = try P256.Signing.PublicKey(pemRepresentation: Fixture.keys.publicKeyPEM)
        let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature)
        #expect(publicKey.isValidSignature(ecdsa, for: Data("\(segments[0]).\(segments[1])".utf8)))
        #expect(!publicKey.isValidSignature(ecdsa, for: Data("\(segments[0]).x\(segments[1])".utf8)))
    }

    @Test func issuedAtComesFromTheClock() async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_712_345_678.9))
        let jwt = try Self.makeProvider(clock).token()
        let claims = try Self.decodeSegment(jwt.split(separator: ".")[1])
        #expect(String(decoding: claims, as: UTF8.self) == #"{"iat":1712345678,"iss":"TEAM123456"}"#)
    }

    /// (minutes after the first token, expected: a new token?)
    @Test(arguments: [(0, false), (19, false), (20, false), (49, false), (49.99, false), (50, true), (120, true)])
    func reuseForFiftyMinutes(minutes: Double, regenerated: Bool) async throws {
        let clock = TestClock()
        let provider = try Self.makeProvider(clock)
        let first = try provider.token()
        clock.advance(seconds: minutes * 60)
        let second = try provider.token()
        #expect((first != second) == regenerated)
        #expect(provider.generatedCount == (regenerated ? 2 : 1))
    }

    @Test func refreshedTokenIsReusedAgain() async throws {
        let clock = TestClock()
        let provider = try Self.makeProvider(clock)
        _ = try provider.token()
        clock.advance(seconds: 50 * 60)
        let second = try provider.token()
        clock.advance(seconds: 30 * 60)
        #expect(try provider.token() == second)
        clock.advance(seconds: 20 * 60)
        #expect(try provider.token() != second)
    }

    @Test func expiredReportForcesARefreshWithinTwentyMinutes() async throws {
        let clock = TestClock()
        let provider = try Self.makeProvider(clock)
        let first = try provider.token()
        clock.advance(seconds: 60)
        provider.tokenExpired(first)
        let second = try provider.token()
        #expect(second != first)
        // A late report about the old token (another in-flight request) does not regenerate again.
        provider.tokenExpired(first)
        #expect(try provider.token() == second)
        #expect(provider.generatedCount == 2)
    }

    @Test func neverMoreOftenThanEveryTwentyMinutesEvenWithShortReuse() async throws {
        let clock = TestClock()
        let key = try P256.Signing.PrivateKey(pemRepresentation: Fixture.keys.privateKeyPEM)
        let provider = APNsTokenProvider(
            signingKey: key,
            keyId: Fixture.keyId,
            teamId: Fixture.teamId,
            reuseInterval: .seconds(60),
            clock: { clock.now }
        )
        let first = try provider.token()
        clock.advance(seconds: 19 * 60)
        #expect(try provider.token() == first)
        clock.advance(seconds: 60)
        #expect(try provider.token() != first)
    }

    @Test func keepCurrentTokenHoldsItLonger() async throws {
        let clock = TestClock()
        let provider = try Self.makeProvider(clock)
        let first = try provider.token()
        clock.advance(seconds: 45 * 60)
        provider.keepCurrentToken()
        clock.advance(seconds: 10 * 60)  // 55 minutes old, but held for 20 minutes from minute 45
        #expect(try provider.token() == first)
        clock.advance(seconds: 10 * 60)
        #expect(try provider.token() != first)
    }
}
