/// How FCM addresses an app: a registration token or a Firebase Installation ID (a message's one
/// target), or a topic the app's devices subscribe to (ScoreFeed's own, never a registration's).
public enum FCMAddress: Sendable, Equatable, Hashable {
    /// An FCM registration token.
    case token(String)
    /// A Firebase Installation ID.
    case fid(String)
    /// An FCM topic (its name, without `/topics/`): one message reaches every device subscribed.
    case topic(String)

    /// `token`, `fid` or `topic`, as stored in `activities.fcm_kind`.
    public var kind: String {
        switch self {
        case .token: "token"
        case .fid: "fid"
        case .topic: "topic"
        }
    }

    /// The token, the installation id or the topic's name itself.
    public var value: String {
        switch self {
        case .token(let value), .fid(let value), .topic(let value): value
        }
    }

    /// The registration token, when this address is one.
    public var token: String? { if case .token(let token) = self { token } else { nil } }
    /// The installation id, when this address is one.
    public var fid: String? { if case .fid(let fid) = self { fid } else { nil } }

    /// The `fcmToken` and `fid` members of the JSON of a target reached at `address` (null when not).
    public static func jsonMembers(_ address: FCMAddress?) -> JSONObject {
        ["fcmToken": address?.token.map(JSONValue.string) ?? .null, "fid": address?.fid.map(JSONValue.string) ?? .null]
    }

    /// The address stored as `kind` (`token`, `fid` or `topic`) and `value`; `nil` when either is
    /// missing or unknown.
    public init?(kind: String?, value: String?) {
        switch (kind, value) {
        case ("token", let value?): self = .token(value)
        case ("fid", let value?): self = .fid(value)
        case ("topic", let value?): self = .topic(value)
        default: return nil
        }
    }
}
