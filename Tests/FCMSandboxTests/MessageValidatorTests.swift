import Foundation
import ScoreDomain
import Testing

@testable import FCMSandbox

@Suite("messages:send bodies")
struct MessageValidatorTests {
    static func valid(_ target: MessageTarget, validateOnly: Bool = false) -> Result<ValidMessage, FieldViolation> {
        .success(ValidMessage(target: target, validateOnly: validateOnly))
    }

    static func invalid(_ field: String, _ description: String) -> Result<ValidMessage, FieldViolation> {
        .failure(FieldViolation(field, description))
    }

    static let big = String(repeating: "x", count: 4100)
    /// `{"pad":"…"}` of exactly 4,096 bytes.
    static let fits = String(repeating: "x", count: 4086)

    static let cases: [(String, Result<ValidMessage, FieldViolation>)] = [
        (Fixture.message(), valid(.token("device-a:APA91b"))),
        (#"{"message":{"token":"t1"},"validate_only":true}"#, valid(.token("t1"), validateOnly: true)),
        (#"{"message":{"token":"t1"},"validateOnly":false}"#, valid(.token("t1"))),
        (#"{"message":{"topic":"/topics/scores-SEA"}}"#, valid(.topic("scores-SEA"))),
        (
            #"{"message":{"condition":"'a' in topics && 'b' in topics"}}"#,
            valid(.condition("'a' in topics && 'b' in topics"))
        ),
        (#"{"message":{"fid":"cR_2aB","data":{"seq":"7","score":"4-5"}}}"#, valid(.fid("cR_2aB"))),
        (
            #"{"message":{"token":"t1","apns":{"liveActivityToken":"la","fcmOptions":{}},"fcmOptions":{"analyticsLabel":"x"}}}"#,
            valid(.token("t1"))
        ),
        (
            #"{"message":{"token":"t1","android":{"priority":"HIGH","ttl":"3.5s","collapse_key":"c","data":{"a":"b"},"#
                + #""notification":{"title":"t"},"restricted_package_name":"com.x","direct_boot_ok":true}}}"#,
            valid(.token("t1"))
        ),
        (#"{"message":{"token":"t1","notification":{"title":"Final","body":"SEA 4 - 5 HOU"}}}"#, valid(.token("t1"))),
        (#"{"message":{"token":"t1","data":{"pad":"\#(fits)"}}}"#, valid(.token("t1"))),
        ("not json", invalid("", "Invalid JSON payload received. The body is not valid JSON.")),
        ("[1]", invalid("", "Invalid JSON payload received. Expected an object, got TYPE_LIST.")),
        (
            #"{"message":{"token":"t1"},"dry_run":true}"#,
            invalid("", #"Invalid JSON payload received. Unknown name "dry_run": Cannot find field."#)
        ),
        (#"{"validate_only":true}"#, invalid("message", "Field 'message' is required.")),
        (
            #"{"message":{"token":"t1"},"validate_only":"yes"}"#,
            invalid("validate_only", #"Invalid value at 'validate_only' (TYPE_STRING), "yes""#)
        ),
        (#"{"message":"t1"}"#, invalid("message", #"Invalid value at 'message' (TYPE_STRING), "t1""#)),
        (#"{"message":{}}"#, invalid("message", "Recipient of the message is not set.")),
        (
            #"{"message":{"token":"t1","topic":"news"}}"#,
            invalid(
                "message",
                "Invalid value at 'message' (oneof), oneof field 'target' is already set. Cannot set 'topic'")
        ),
        (
            #"{"message":{"token":"t1","priority":"high"}}"#,
            invalid(
                "message", #"Invalid JSON payload received. Unknown name "priority" at 'message': Cannot find field."#)
        ),
        (#"{"message":{"token":7}}"#, invalid("message.token", "Invalid value at 'message.token' (TYPE_NUMBER), 7")),
        (
            #"{"message":{"token":"has space"}}"#,
            invalid("message.token", "The registration token is not a valid FCM registration token")
        ),
        (
            #"{"message":{"token":""}}"#,
            invalid("message.token", "The registration token is not a valid FCM registration token")
        ),
        (#"{"message":{"topic":"a b"}}"#, invalid("message.topic", "Invalid topic name 'a b'")),
        (#"{"message":{"condition":"  "}}"#, invalid("message.condition", "Invalid condition expression provided.")),
        (
            #"{"message":{"token":"t1","data":{"seq":7}}}"#,
            invalid("message.data[seq].value", "Invalid value at 'message.data[seq].value' (TYPE_NUMBER), 7")
        ),
        (
            #"{"message":{"token":"t1","data":["a"]}}"#,
            invalid("message.data", #"Invalid value at 'message.data' (TYPE_LIST), ["a"]"#)
        ),
        (
            #"{"message":{"token":"t1","data":{"pad":"\#(big)"}}}"#,
            invalid("message.data", "Message is too big: 'message.data' is 4110 bytes, at most 4096")
        ),
        (
            #"{"message":{"token":"t1","android":{"data":{"pad":"\#(big)"}}}}"#,
            invalid("message.android.data", "Message is too big: 'message.android.data' is 4110 bytes, at most 4096")
        ),
        (
            #"{"message":{"token":"t1","data":{"from":"x"}}}"#,
            invalid("message.data", "Invalid data payload key: from")
        ),
        (
            #"{"message":{"token":"t1","data":{"google.c.a":"x"}}}"#,
            invalid("message.data", "Invalid data payload key: google.c.a")
        ),
        (
            #"{"message":{"token":"t1","android":{"data":{"gcm.n.e":"1"}}}}"#,
            invalid("message.android.data", "Invalid data payload key: gcm.n.e")
        ),
        (
            #"{"message":{"token":"t1","apns":{"payload":{"aps":{"alert":"\#(big)"}}}}}"#,
            invalid("message.apns.payload", "Message is too big: 'message.apns.payload' is 4120 bytes, at most 4096")
        ),
        (
            #"{"message":{"token":"t1","apns":{"headers":{"apns-priority":10}}}}"#,
            invalid(
                "message.apns.headers[apns-priority].value",
                "Invalid value at 'message.apns.headers[apns-priority].value' (TYPE_NUMBER), 10")
        ),
        (
            #"{"message":{"token":"t1","apns":{"headers":{"apns-priority":"7"}}}}"#,
            invalid("message.apns.headers", "Invalid APNs header 'apns-priority': '7' is not 10, 5 or 1")
        ),
        (
            #"{"message":{"token":"t1","apns":{"headers":{"apns-expiration":"soon"}}}}"#,
            invalid(
                "message.apns.headers", "Invalid APNs header 'apns-expiration': 'soon' is not a UNIX time in seconds")
        ),
        (
            #"{"message":{"token":"t1","apns":{"payload":"{}"}}}"#,
            invalid("message.apns.payload", #"Invalid value at 'message.apns.payload' (TYPE_STRING), "{}""#)
        ),
        (
            #"{"message":{"token":"t1","apns":{"live_activity_token":5}}}"#,
            invalid(
                "message.apns.live_activity_token",
                "Invalid value at 'message.apns.live_activity_token' (TYPE_NUMBER), 5")
        ),
        (
            #"{"message":{"token":"t1","apns":{"topic":"x"}}}"#,
            invalid(
                "message.apns",
                #"Invalid JSON payload received. Unknown name "topic" at 'message.apns': Cannot find field."#)
        ),
        (
            #"{"message":{"token":"t1","android":{"priority":"urgent"}}}"#,
            invalid(
                "message.android.priority",
                "Invalid value at 'message.android.priority' "
                    + #"(type.googleapis.com/google.firebase.fcm.v1.AndroidMessagePriority), "urgent""#)
        ),
        (
            #"{"message":{"token":"t1","android":{"ttl":"300"}}}"#,
            invalid(
                "message.android.ttl",
                "Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf.Duration), "
                    + "Field 'ttl', Illegal duration format; duration must end with 's'")
        ),
        (
            #"{"message":{"token":"t1","android":{"direct_boot_ok":"true"}}}"#,
            invalid(
                "message.android.direct_boot_ok",
                #"Invalid value at 'message.android.direct_boot_ok' (TYPE_STRING), "true""#)
        ),
        (
            #"{"message":{"token":"t1","android":{"collapseKey":1}}}"#,
            invalid("message.android.collapseKey", "Invalid value at 'message.android.collapseKey' (TYPE_NUMBER), 1")
        ),
        (
            #"{"message":{"token":"t1","notification":{"title":"a","sound":"default"}}}"#,
            invalid(
                "message.notification",
                #"Invalid JSON payload received. Unknown name "sound" at 'message.notification': Cannot find field."#)
        ),
    ]

    @Test("bodies are checked as FCM does", arguments: cases)
    func validate(body: String, expected: Result<ValidMessage, FieldViolation>) {
        #expect(MessageValidator.validate(try? JSONValue.parse(Data(body.utf8))) == expected)
    }

    @Test(
        "the target is read also from invalid bodies",
        arguments: [
            (#"{"message":{"token":"t1","bogus":1}}"#, "t1"),
            (#"{"message":{"fid":"f1"}}"#, "f1"),
            (#"{"message":{"topic":"news"}}"#, nil),
            ("garbage", nil),
        ] as [(String, String?)])
    func device(body: String, expected: String?) {
        #expect(MessageValidator.device(in: try? JSONValue.parse(Data(body.utf8))) == expected)
    }
}
