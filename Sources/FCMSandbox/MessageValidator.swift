import ScoreDomain

/// Where a message goes: exactly one of FCM's targets.
enum MessageTarget: Sendable, Hashable {
    case token(String)
    case topic(String)
    case condition(String)
    case fid(String)

    /// The registration token or FID: the device the per-device limit counts for, `nil` for a topic or
    /// condition.
    var device: String? {
        switch self {
        case .token(let token): token
        case .fid(let fid): fid
        case .topic, .condition: nil
        }
    }
}

/// A `messages:send` body that passed the checks.
struct ValidMessage: Sendable, Hashable {
    var target: MessageTarget
    /// `validate_only`: a dry run, answered but not delivered.
    var validateOnly: Bool
}

/// Checks a `messages:send` body as FCM HTTP v1 does: structure, known fields (snake_case or the
/// lowerCamelCase proto JSON names), types, one target, APNs and Android options, payload sizes.
/// Pure: no I/O, no clock.
enum MessageValidator {
    /// FCM's limit for the `data` map and for the serialized `apns.payload`.
    static let maximumPayloadBytes = 4096

    private static let bodyFields: Set<String> = ["message", "validate_only"]
    private static let messageFields: Set<String> = [
        "name", "data", "notification", "android", "webpush", "apns", "fcm_options", "token", "topic", "condition",
        "fid",
    ]
    private static let notificationFields: Set<String> = ["title", "body", "image"]
    private static let androidFields: Set<String> = [
        "collapse_key", "priority", "ttl", "data", "notification", "restricted_package_name", "direct_boot_ok",
        "fcm_options",
    ]
    private static let apnsFields: Set<String> = ["headers", "payload", "live_activity_token", "fcm_options"]
    private static let targets = ["token", "topic", "condition", "fid"]

    /// The registration token or FID a body is addressed to, read leniently (for records and
    /// token-scoped faults, also from invalid bodies).
    static func device(in body: JSONValue?) -> String? {
        guard case .object(let top)? = body, case .object(let message)? = top["message"] else { return nil }
        if case .string(let token)? = message["token"] { return token }
        if case .string(let fid)? = message["fid"] { return fid }
        return nil
    }

    /// The topic a body is addressed to (without `/topics/`), read leniently (for records).
    static func topic(in body: JSONValue?) -> String? {
        guard case .object(let top)? = body, case .object(let message)? = top["message"],
            case .string(let topic)? = message["topic"]
        else { return nil }
        return topic.hasPrefix("/topics/") ? String(topic.dropFirst(8)) : topic
    }

    /// Checks a body.
    /// - Parameter body: The parsed body, `nil` when it is not JSON.
    /// - Returns: The target and flags, or the first field violation found.
    static func validate(_ body: JSONValue?) -> Result<ValidMessage, FieldViolation> {
        Result { () throws(FieldViolation) in try check(body) }
    }

    private static func check(_ body: JSONValue?) throws(FieldViolation) -> ValidMessage {
        guard let body else {
            throw FieldViolation("", "Invalid JSON payload received. The body is not valid JSON.")
        }
        guard case .object(let top) = body else {
            throw FieldViolation("", "Invalid JSON payload received. Expected an object, got \(typeName(body)).")
        }
        let fields = try known(top, bodyFields, at: "")
        var validateOnly = false
        if let value = fields["validate_only"] {
            guard case .bool(let flag) = value.value else { throw invalidValue(value, at: "validate_only") }
            validateOnly = flag
        }
        guard let messageField = fields["message"] else {
            throw FieldViolation("message", "Field 'message' is required.")
        }
        let message = try object(messageField, at: "message")
        let members = try known(message, messageFields, at: "message")
        let target = try checkTarget(members)
        if let name = members["name"] { _ = try string(name, at: "message.name") }
        if let data = members["data"] { try checkData(data, at: "message.data") }
        if let notification = members["notification"] {
            try checkNotification(notification, at: "message.notification")
        }
        if let android = members["android"] { try checkAndroid(android) }
        if let webpush = members["webpush"] { _ = try object(webpush, at: "message.webpush") }
        if let apns = members["apns"] { try checkAPNs(apns) }
        if let options = members["fcm_options"] {
            let fields = try known(
                try object(options, at: "message.fcm_options"), ["analytics_label"], at: "message.fcm_options")
            if let label = fields["analytics_label"] {
                _ = try string(label, at: "message.fcm_options.analytics_label")
            }
        }
        return ValidMessage(target: target, validateOnly: validateOnly)
    }

    private static func checkTarget(_ members: [String: Field]) throws(FieldViolation) -> MessageTarget {
        var target: MessageTarget?
        for name in targets {
            guard let field = members[name] else { continue }
            let value = try string(field, at: "message.\(field.name)")
            guard target == nil else {
                throw FieldViolation(
                    "message",
                    "Invalid value at 'message' (oneof), oneof field 'target' is already set. Cannot set '\(field.name)'"
                )
            }
            switch name {
            case "token":
                guard isTokenLike(value) else {
                    throw FieldViolation(
                        "message.token", "The registration token is not a valid FCM registration token")
                }
                target = .token(value)
            case "fid":
                guard isTokenLike(value) else {
                    throw FieldViolation("message.fid", "The Firebase Installation ID is not valid")
                }
                target = .fid(value)
            case "topic":
                let topic = value.hasPrefix("/topics/") ? String(value.dropFirst(8)) : value
                guard !topic.isEmpty, topic.allSatisfy(isTopicCharacter) else {
                    throw FieldViolation("message.topic", "Invalid topic name '\(value)'")
                }
                target = .topic(topic)
            default:
                guard !value.allSatisfy(\.isWhitespace) else {
                    throw FieldViolation("message.condition", "Invalid condition expression provided.")
                }
                target = .condition(value)
            }
        }
        guard let target else { throw FieldViolation("message", "Recipient of the message is not set.") }
        return target
    }

    private static func checkAPNs(_ field: Field) throws(FieldViolation) {
        let members = try known(try object(field, at: "message.apns"), apnsFields, at: "message.apns")
        if let headersField = members["headers"] {
            let headers = try object(headersField, at: "message.apns.headers")
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
                guard case .string(let text) = value else {
                    throw invalidValue(Field(name: name, value: value), at: "message.apns.headers[\(name)].value")
                }
                switch name.lowercased() {
                case "apns-priority":
                    guard ["1", "5", "10"].contains(text) else {
                        throw FieldViolation(
                            "message.apns.headers", "Invalid APNs header 'apns-priority': '\(text)' is not 10, 5 or 1")
                    }
                case "apns-expiration":
                    guard !text.isEmpty, text.allSatisfy({ ("0"..."9").contains($0) }) else {
                        throw FieldViolation(
                            "message.apns.headers",
                            "Invalid APNs header 'apns-expiration': '\(text)' is not a UNIX time in seconds")
                    }
                default:
                    break
                }
            }
        }
        if let payloadField = members["payload"] {
            let payload = JSONValue.object(try object(payloadField, at: "message.apns.payload"))
            let size = payload.serialized().utf8.count
            guard size <= maximumPayloadBytes else {
                throw FieldViolation(
                    "message.apns.payload",
                    "Message is too big: 'message.apns.payload' is \(size) bytes, at most \(maximumPayloadBytes)")
            }
        }
        if let tokenField = members["live_activity_token"] {
            let token = try string(tokenField, at: "message.apns.\(tokenField.name)")
            guard isTokenLike(token) else {
                throw FieldViolation("message.apns.live_activity_token", "Invalid live activity token")
            }
        }
        if let options = members["fcm_options"] { _ = try object(options, at: "message.apns.fcm_options") }
    }

    private static func checkAndroid(_ field: Field) throws(FieldViolation) {
        let members = try known(try object(field, at: "message.android"), androidFields, at: "message.android")
        if let collapseKey = members["collapse_key"] {
            _ = try string(collapseKey, at: "message.android.\(collapseKey.name)")
        }
        if let priority = members["priority"] {
            let text = try string(priority, at: "message.android.priority")
            guard ["normal", "high"].contains(text.lowercased()) else {
                throw FieldViolation(
                    "message.android.priority",
                    "Invalid value at 'message.android.priority' (type.googleapis.com/"
                        + "google.firebase.fcm.v1.AndroidMessagePriority), \"\(text)\"")
            }
        }
        if let ttl = members["ttl"] {
            let text = try string(ttl, at: "message.android.ttl")
            guard isDuration(text) else {
                throw FieldViolation(
                    "message.android.ttl",
                    "Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf.Duration), "
                        + "Field 'ttl', Illegal duration format; duration must end with 's'")
            }
        }
        if let data = members["data"] { try checkData(data, at: "message.android.data") }
        if let notification = members["notification"] {
            _ = try object(notification, at: "message.android.notification")
        }
        if let package = members["restricted_package_name"] {
            _ = try string(package, at: "message.android.\(package.name)")
        }
        if let directBoot = members["direct_boot_ok"] {
            guard case .bool = directBoot.value else {
                throw invalidValue(directBoot, at: "message.android.\(directBoot.name)")
            }
        }
        if let options = members["fcm_options"] { _ = try object(options, at: "message.android.fcm_options") }
    }

    private static func checkData(_ field: Field, at path: String) throws(FieldViolation) {
        let data = try object(field, at: path)
        for (key, value) in data.sorted(by: { $0.key < $1.key }) {
            // Keys FCM keeps for itself.
            guard !["from", "message_type"].contains(key), !key.hasPrefix("google"),
                !key.hasPrefix("gcm")
            else {
                throw FieldViolation(path, "Invalid data payload key: \(key)")
            }
            guard case .string = value else {
                throw invalidValue(Field(name: key, value: value), at: "\(path)[\(key)].value")
            }
        }
        let size = JSONValue.object(data).serialized().utf8.count
        guard size <= maximumPayloadBytes else {
            throw FieldViolation(path, "Message is too big: '\(path)' is \(size) bytes, at most \(maximumPayloadBytes)")
        }
    }

    private static func checkNotification(_ field: Field, at path: String) throws(FieldViolation) {
        let members = try known(try object(field, at: path), notificationFields, at: path)
        for (name, value) in members.sorted(by: { $0.key < $1.key }) {
            _ = try string(value, at: "\(path).\(name)")
        }
    }

    // MARK: Helpers

    /// A member with the name it was given under.
    private struct Field {
        var name: String
        var value: JSONValue
    }

    /// The members by their snake_case name; a member no name of `allowed` matches is an error.
    private static func known(
        _ object: JSONObject, _ allowed: Set<String>, at path: String
    ) throws(FieldViolation) -> [String: Field] {
        var fields: [String: Field] = [:]
        for (name, value) in object.sorted(by: { $0.key < $1.key }) {
            let key = snakeCase(name)
            guard allowed.contains(key) else {
                let place = path.isEmpty ? "" : " at '\(path)'"
                throw FieldViolation(
                    path, "Invalid JSON payload received. Unknown name \"\(name)\"\(place): Cannot find field.")
            }
            fields[key] = Field(name: name, value: value)
        }
        return fields
    }

    private static func object(_ field: Field, at path: String) throws(FieldViolation) -> JSONObject {
        guard case .object(let members) = field.value else { throw invalidValue(field, at: path) }
        return members
    }

    private static func string(_ field: Field, at path: String) throws(FieldViolation) -> String {
        guard case .string(let text) = field.value else { throw invalidValue(field, at: path) }
        return text
    }

    private static func invalidValue(_ field: Field, at path: String) -> FieldViolation {
        let shown = String(field.value.serialized().prefix(64))
        return FieldViolation(path, "Invalid value at '\(path)' (\(typeName(field.value))), \(shown)")
    }

    /// The JSON type name used in Google's error messages.
    private static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "TYPE_BOOL"
        case .int, .double: "TYPE_NUMBER"
        case .string: "TYPE_STRING"
        case .array: "TYPE_LIST"
        case .object: "TYPE_MESSAGE"
        }
    }

    /// `liveActivityToken` -> `live_activity_token` (proto JSON accepts both spellings).
    static func snakeCase(_ name: String) -> String {
        guard name.contains(where: \.isUppercase) else { return name }
        var out = ""
        for character in name {
            if character.isUppercase {
                out += "_" + character.lowercased()
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// Non-empty, without spaces or control characters.
    private static func isTokenLike(_ text: String) -> Bool {
        !text.isEmpty && !text.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F }
    }

    private static func isTopicCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "-_.~%".contains(character))
    }

    /// A protobuf duration in JSON: `3.5s`, `300s` (up to 9 fractional digits).
    private static func isDuration(_ text: String) -> Bool {
        guard text.hasSuffix("s") else { return false }
        let number = text.dropLast().split(separator: ".", omittingEmptySubsequences: false)
        guard number.count <= 2, !number[0].isEmpty, number[0].allSatisfy({ ("0"..."9").contains($0) }) else {
            return false
        }
        guard number.count == 2 else { return true }
        return (1...9).contains(number[1].count) && number[1].allSatisfy { ("0"..."9").contains($0) }
    }
}
