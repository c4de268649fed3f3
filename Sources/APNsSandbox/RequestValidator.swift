import Foundation
import NIOHTTP1

/// A complete request as the sandbox received it.
struct SandboxRequest: Sendable {
    var method: String
    var path: String
    var headers: HTTPHeaders
    /// The body, at most ``RequestValidator/maximumStoredBody`` bytes.
    var body: [UInt8]
    /// The full body length, even beyond what was stored.
    var bodyLength: Int
}

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
    static let checkedSingleHeaders = [
        "apns-push-type", "apns-topic", "apns-priority", "apns-expiration", "apns-id", "authorization",
    ]

    let bundleId: String
    let tokenVerifier: ProviderTokenVerifier

    var topic: String { "\(bundleId).push-type.liveactivity" }

    /// The device token of a `/3/device/<token>` path (possibly empty or malformed), `nil` for other paths.
    static func deviceToken(inPath path: String) -> String? {
        guard path.hasPrefix(pathPrefix) else { return nil }
        return String(path.dropFirst(pathPrefix.count))
    }

    /// The request's `apns-id` when it is a UUID, lowercased.
    static func requestApnsId(_ headers: HTTPHeaders) -> String? {
        headers.first(name: "apns-id").flatMap(UUID.init(uuidString:)).map { $0.uuidString.lowercased() }
    }

    func validate(_ request: SandboxRequest, now: Date) -> Verdict {
        let headers = request.headers
        guard request.method == "POST" else { return Verdict(status: 405, reason: "MethodNotAllowed") }
        guard let token = Self.deviceToken(inPath: request.path) else { return Verdict(status: 404, reason: "BadPath") }
        guard !token.isEmpty else { return Verdict(status: 400, reason: "MissingDeviceToken") }
        guard (64...200).contains(token.utf8.count), token.allSatisfy(\.isHexDigit) else {
            return Verdict(status: 400, reason: "BadDeviceToken")
        }
        if Self.checkedSingleHeaders.contains(where: { headers[$0].count > 1 }) {
            return Verdict(status: 400, reason: "DuplicateHeaders")
        }
        if headers.first(name: "apns-id") != nil, Self.requestApnsId(headers) == nil {
            return Verdict(status: 400, reason: "BadMessageId")
        }
        if let reason = tokenVerifier.check(authorization: headers.first(name: "authorization"), now: now) {
            return Verdict(status: 403, reason: reason)
        }
        if let verdict = checkTopic(headers) { return verdict }
        if let priority = headers.first(name: "apns-priority"), priority != "5", priority != "10" {
            return Verdict(status: 400, reason: "BadPriority")
        }
        if let expiration = headers.first(name: "apns-expiration"), Int64(expiration) == nil {
            return Verdict(status: 400, reason: "BadExpirationDate")
        }
        if request.bodyLength > Self.maximumPayload { return Verdict(status: 413, reason: "PayloadTooLarge") }
        guard Self.hasApsObject(request.body) else { return Verdict(status: 400, reason: "PayloadEmpty") }
        return .ok
    }

    /// MissingTopic, BadTopic (not a Live Activity topic), InvalidPushType, DeviceTokenNotForTopic
    /// (a Live Activity topic of another app).
    private func checkTopic(_ headers: HTTPHeaders) -> Verdict? {
        guard let requestTopic = headers.first(name: "apns-topic"), !requestTopic.isEmpty else {
            return Verdict(status: 400, reason: "MissingTopic")
        }
        let suffix = ".push-type.liveactivity"
        guard requestTopic.hasSuffix(suffix), requestTopic.count > suffix.count else {
            return Verdict(status: 400, reason: "BadTopic")
        }
        guard headers.first(name: "apns-push-type") == "liveactivity" else {
            return Verdict(status: 400, reason: "InvalidPushType")
        }
        guard requestTopic == topic else { return Verdict(status: 400, reason: "DeviceTokenNotForTopic") }
        return nil
    }

    /// Whether the body is a JSON object with an `aps` object.
    static func hasApsObject(_ body: [UInt8]) -> Bool {
        guard !body.isEmpty,
            let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        else { return false }
        return object["aps"] is [String: Any]
    }
}
