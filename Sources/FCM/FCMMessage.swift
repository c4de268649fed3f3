import ScoreDomain

extension FCMAddress {
    /// `"token":"…"`, `"fid":"…"` or `"topic":"…"`: the message's one target.
    var jsonMember: String {
        switch self {
        case .token(let token): "\"token\":" + JSONValue.quoted(token)
        case .fid(let fid): "\"fid\":" + JSONValue.quoted(fid)
        case .topic(let topic): "\"topic\":" + JSONValue.quoted(topic)
        }
    }
}

/// Builds the request bodies of `messages:send`, keys in a fixed order, embedded payloads byte for byte.
public enum FCMMessage {
    /// The longest time to live FCM accepts: 28 days.
    public static let maximumTTLSeconds = 2_419_200

    /// An iOS Live Activity update through FCM:
    /// `{"message":{"token"|"fid":…,"apns":{"headers":{"apns-expiration":"<expiration>","apns-priority":"5"|"10"},`
    /// `"live_activity_token":"…","payload":<apsPayload>}}}`.
    ///
    /// Both headers are always present, as strings: without them FCM sends priority 10 and a 30-day expiration.
    /// - Parameters:
    ///   - target: The app's FCM registration token or installation id.
    ///   - liveActivityToken: The activity's update token (or push-to-start token).
    ///   - priority: The APNs priority; 10 and above sends `"10"`, anything lower `"5"`.
    ///   - expiration: `apns-expiration`, UNIX seconds (0: deliver now or never).
    ///   - apsPayload: The APNs body `{"aps":{…}}`, embedded as is (it must be a JSON object).
    /// - Returns: The request body.
    public static func liveActivity(
        target: FCMAddress, liveActivityToken: String, priority: Int, expiration: Int, apsPayload: String
    ) -> String {
        "{\"message\":{" + target.jsonMember + ",\"apns\":{\"headers\":{\"apns-expiration\":\"\(expiration)\","
            + "\"apns-priority\":\"\(priority >= 10 ? 10 : 5)\"},\"live_activity_token\":"
            + JSONValue.quoted(liveActivityToken) + ",\"payload\":" + apsPayload + "}}}"
    }

    /// An Android data message (the app renders the Live Update itself):
    /// `{"message":{"token"|"fid":…,"android":{"priority":"high","ttl":"<ttlSeconds>s"},"data":<dataJSON>}}`.
    ///
    /// Never has a `collapse_key`: collapsible messages are limited to a burst of 20, then 1 every 3 minutes.
    /// - Parameters:
    ///   - target: The app's FCM registration token or installation id.
    ///   - dataJSON: The `data` object, string keys to string values, embedded as is.
    ///   - ttlSeconds: How long FCM keeps the message for an offline device (clamped to 0…28 days).
    /// - Returns: The request body.
    public static func data(target: FCMAddress, dataJSON: String, ttlSeconds: Int) -> String {
        let ttl = min(max(0, ttlSeconds), maximumTTLSeconds)
        return "{\"message\":{" + target.jsonMember + ",\"android\":{\"priority\":\"high\",\"ttl\":\"\(ttl)s\"},"
            + "\"data\":" + dataJSON + "}}"
    }
}
