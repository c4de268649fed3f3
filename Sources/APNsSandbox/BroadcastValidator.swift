import Foundation

/// Apple's channel management API (`/1/apps/<bundle>/channels`, `/all-channels`) and broadcast
/// requests (`/4/broadcasts/apps/<bundle>`), checked as APNs does. Pure but for the channel registry.
struct BroadcastValidator: Sendable {
    static let managementPrefix = "/1/apps/"
    static let broadcastPrefix = "/4/broadcasts/apps/"
    static let maximumPayload = 5120

    /// The app's bundle id (the topic without `.push-type.liveactivity`).
    let bundleId: String
    let tokenVerifier: ProviderTokenVerifier
    let channels: SandboxChannels

    /// What a management request gets: a status, an error reason, or headers and a JSON body.
    struct Answer: Sendable, Hashable {
        var status: Int
        var reason: String?
        var channelId: String?
        var body: String?
    }

    /// Answers a channel management request (create, read, delete, list).
    func manage(_ request: SandboxRequest, now: Date) -> Answer {
        let rest = request.path.dropFirst(Self.managementPrefix.count)
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, ["channels", "all-channels"].contains(parts[1]) else {
            return Answer(status: 404, reason: "BadPath")
        }
        if let reason = tokenVerifier.check(authorization: request.authorization, now: now) {
            return Answer(status: 403, reason: reason)
        }
        guard parts[0] == bundleId else { return Answer(status: 403, reason: "TopicMismatch") }
        let channelId = request.headers["apns-channel-id"]
        switch (request.method, parts[1]) {
        case ("GET", "all-channels"):
            let ids = channels.all().map { "\"\($0)\"" }.joined(separator: ",")
            return Answer(status: 200, body: "{\"channels\":[\(ids)]}")
        case ("POST", "channels"):
            guard
                let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
                let policy = object["message-storage-policy"] as? Int, [0, 1].contains(policy)
            else { return Answer(status: 400, reason: "BadRequestParams") }
            guard (object["push-type"] as? String) == "LiveActivity" else {
                return Answer(status: 400, reason: "InvalidPushType")
            }
            guard let channel = channels.create(storagePolicy: policy) else {
                return Answer(status: 400, reason: "CannotCreateChannelConfig")
            }
            return Answer(status: 201, channelId: channel.id)
        case ("GET", "channels"), ("DELETE", "channels"):
            guard let channelId, !channelId.isEmpty else { return Answer(status: 400, reason: "MissingChannelId") }
            guard Data(base64Encoded: channelId) != nil else { return Answer(status: 400, reason: "BadChannelId") }
            guard let channel = channels.channel(channelId) else {
                return Answer(status: 400, reason: "ChannelNotRegistered")
            }
            if request.method == "DELETE" {
                _ = channels.delete(channelId)
                return Answer(status: 204)
            }
            return Answer(
                status: 200,
                body: "{\"message-storage-policy\":\(channel.storagePolicy),\"push-type\":\"LiveActivity\"}")
        default:
            return Answer(status: 405, reason: "MethodNotAllowed")
        }
    }

    /// Checks a broadcast, in the order a faithful server reports problems.
    func validateBroadcast(_ request: SandboxRequest, now: Date) -> Verdict {
        guard request.method == "POST" else { return Verdict(status: 405, reason: "MethodNotAllowed") }
        let bundle = request.path.dropFirst(Self.broadcastPrefix.count)
        guard !bundle.isEmpty, !bundle.contains("/") else { return Verdict(status: 404, reason: "BadPath") }
        if let reason = tokenVerifier.check(authorization: request.authorization, now: now) {
            return Verdict(status: 403, reason: reason)
        }
        guard bundle == bundleId else { return Verdict(status: 403, reason: "TopicMismatch") }
        // A broadcast names its channel, not a topic.
        if request.topic != nil { return Verdict(status: 400, reason: "BadRequestParams") }
        guard let channelId = request.headers["apns-channel-id"], !channelId.isEmpty else {
            return Verdict(status: 400, reason: "MissingChannelId")
        }
        guard Data(base64Encoded: channelId) != nil else { return Verdict(status: 400, reason: "BadChannelId") }
        guard let pushType = request.pushType else { return Verdict(status: 400, reason: "MissingPushType") }
        guard pushType == "liveactivity" else { return Verdict(status: 400, reason: "InvalidPushType") }
        let channel = channels.channel(channelId)
        if let expiration = request.expiration {
            guard let value = Int64(expiration) else { return Verdict(status: 400, reason: "BadExpirationDate") }
            // On a No Message Storage channel only 0 is accepted.
            if value != 0, channel?.storagePolicy ?? 0 == 0 { return Verdict(status: 400, reason: "BadExpirationDate") }
        }
        if let priority = request.priority, priority != "5", priority != "10" {
            return Verdict(status: 400, reason: "BadPriority")
        }
        guard channel != nil else { return Verdict(status: 400, reason: "ChannelNotRegistered") }
        guard request.bodyLength > 0 else { return Verdict(status: 400, reason: "PayloadEmpty") }
        if request.bodyLength > Self.maximumPayload { return Verdict(status: 413, reason: "PayloadTooLarge") }
        guard PayloadCheck.hasApsObject(request.body) else { return Verdict(status: 400, reason: "PayloadEmpty") }
        return .ok
    }
}
