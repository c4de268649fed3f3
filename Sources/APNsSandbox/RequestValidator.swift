import Foundation

/// The answer to a request: a status and, for errors, an APNs reason.
struct Verdict: Sendable, Hashable {
    var status: Int
    var reason: String?

    static let ok = Verdict(status: 200, reason: nil)
}

/// Checks a request as APNs does for Live Activity pushes. Pure: time is a parameter.
struct RequestValidator: Sendable {
    static let maximumPayload = 4096
    static let maximumStoredBody = 64 * 1024
    static let pathPrefix = "/3/device/"

    /// The accepted topic, `<bundleId>.push-type.liveactivity`.
    let topic: String
    let tokenVerifier: ProviderTokenVerifier
    /// The channel management API and broadcasts.
    let broadcasts: BroadcastValidator

    /// The device token of a `/3/device/<token>` path (possibly empty or malformed), `nil` for other paths.
    static func deviceToken(inPath path: String) -> String? {
        guard path.hasPrefix(pathPrefix) else { return nil }
        return String(path.dropFirst(pathPrefix.count))
    }

    /// The longest token accepted (far above today's 64 or 160 hex digits).
    static let maximumTokenLength = 1024

    func validate(_ request: SandboxRequest, now: Date) -> Verdict {
        guard request.method == "POST" else { return Verdict(status: 405, reason: "MethodNotAllowed") }
        guard let token = request.token else { return Verdict(status: 404, reason: "BadPath") }
        guard !token.isEmpty else { return Verdict(status: 400, reason: "MissingDeviceToken") }
        // Apple: don't assume a token's length. Only its form (hex) and a sanity bound are checked.
        guard token.utf8.count <= Self.maximumTokenLength, Self.isHex(token) else {
            return Verdict(status: 400, reason: "BadDeviceToken")
        }
        if request.hasDuplicateHeaders { return Verdict(status: 400, reason: "DuplicateHeaders") }
        if request.apnsIdField != nil, request.apnsId == nil { return Verdict(status: 400, reason: "BadMessageId") }
        if let reason = tokenVerifier.check(authorization: request.authorization, now: now) {
            return Verdict(status: 403, reason: reason)
        }
        if let verdict = checkTopic(request) { return verdict }
        if let priority = request.priority, priority != "5", priority != "10" {
            return Verdict(status: 400, reason: "BadPriority")
        }
        if let expiration = request.expiration, Int64(expiration) == nil {
            return Verdict(status: 400, reason: "BadExpirationDate")
        }
        if request.bodyLength > Self.maximumPayload { return Verdict(status: 413, reason: "PayloadTooLarge") }
        guard PayloadCheck.hasApsObject(request.body) else { return Verdict(status: 400, reason: "PayloadEmpty") }
        return .ok
    }

    /// Hex digits (ASCII, or what `Character.isHexDigit` accepts).
    private static func isHex(_ token: String) -> Bool {
        token.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                UInt8(ascii: "A")...UInt8(ascii: "F"):
                true
            default: false
            }
        } || token.allSatisfy(\.isHexDigit)
    }

    /// MissingTopic, BadTopic (not a Live Activity topic), InvalidPushType, DeviceTokenNotForTopic
    /// (a Live Activity topic of another app).
    private func checkTopic(_ request: SandboxRequest) -> Verdict? {
        guard let requestTopic = request.topic, !requestTopic.isEmpty else {
            return Verdict(status: 400, reason: "MissingTopic")
        }
        let suffix = ".push-type.liveactivity"
        guard requestTopic.hasSuffix(suffix), requestTopic.count > suffix.count else {
            return Verdict(status: 400, reason: "BadTopic")
        }
        guard request.pushType == "liveactivity" else { return Verdict(status: 400, reason: "InvalidPushType") }
        guard requestTopic == topic else { return Verdict(status: 400, reason: "DeviceTokenNotForTopic") }
        return nil
    }
}
