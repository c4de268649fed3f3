import Foundation
import ScoreDomain
import ScoreStore

/// One app of `SCOREFEED_APP_KEYS`: the keys its backend presents, and what its registrations may name.
public struct AppSettings: Sendable, Equatable {
    /// `[a-z][a-z0-9-]{0,31}` (``AppName``); `default` for bare keys.
    public var name: String
    public var keys: [String]
    /// The bundle ids its activities and devices may register (`SCOREFEED_APP_<NAME>_BUNDLE_IDS`);
    /// empty: any bundle id.
    public var bundleIds: [String] = []
    /// Its Firebase project (`SCOREFEED_APP_<NAME>_FIREBASE_PROJECT`), recorded for the operator:
    /// delivery has one FCM credential (`SCOREFEED_FCM_CREDENTIALS`) for every app.
    public var firebaseProject: String?
    /// Its Android followers of a game are reached through one FCM topic per game
    /// (`SCOREFEED_APP_<NAME>_ANDROID_TOPICS=true`; ``Followers/follow(gameId:fcm:app:at:policy:viaTopic:in:)``).
    public var androidTopics = false

    public init(
        name: String, keys: [String], bundleIds: [String] = [], firebaseProject: String? = nil,
        androidTopics: Bool = false
    ) {
        (self.name, self.keys, self.bundleIds, self.firebaseProject) = (name, keys, bundleIds, firebaseProject)
        self.androidTopics = androidTopics
    }
}

/// The apps that may register activities, devices and followers, each with its own keys
/// (`SCOREFEED_APP_KEYS=APP:KEY[,APP:KEY…]`; a bare `KEY` is the `default` app's). What an app's key
/// registered is that app's: another app's key does not see it.
public struct AppKeys: Sendable, Equatable, ExpressibleByArrayLiteral {
    public var apps: [AppSettings]

    public init(apps: [AppSettings] = []) { self.apps = apps }

    /// Bare keys: all the `default` app's.
    public init(arrayLiteral keys: String...) {
        apps = keys.isEmpty ? [] : [AppSettings(name: AppName.default, keys: keys)]
    }

    /// No key at all: every registration is refused.
    public var isEmpty: Bool { apps.allSatisfy(\.keys.isEmpty) }

    /// The app whose key `candidate` is, `nil` when none. Every key is compared, in constant time
    /// (``Credentials/index(of:in:)``).
    func app(presenting candidate: String) -> AppSettings? {
        let owners = apps.flatMap { app in app.keys.map { _ in app } }
        return Credentials.index(of: candidate, in: apps.flatMap(\.keys)).map { owners[$0] }
    }

    /// The environment variable of one app's setting: `SCOREFEED_APP_<NAME>_<suffix>`, the name in
    /// capitals with `-` as `_` (`ios-beta` → `SCOREFEED_APP_IOS_BETA_BUNDLE_IDS`).
    public static func variable(_ app: String, _ suffix: String) -> String {
        "SCOREFEED_APP_" + app.uppercased().replacingOccurrences(of: "-", with: "_") + "_" + suffix
    }

    static let bundleIdsSuffix = "BUNDLE_IDS"
    static let firebaseProjectSuffix = "FIREBASE_PROJECT"
    static let androidTopicsSuffix = "ANDROID_TOPICS"

    /// Reads `SCOREFEED_APP_KEYS` and each app's `SCOREFEED_APP_<NAME>_BUNDLE_IDS` (comma-separated
    /// bundle ids), `SCOREFEED_APP_<NAME>_FIREBASE_PROJECT` and `SCOREFEED_APP_<NAME>_ANDROID_TOPICS`
    /// (`true` or `false`).
    /// - Throws: ``ConfigurationError`` for a short key, a key of two apps, a bad app name, bundle id or
    ///   project id, or a setting of an app that has no key.
    public static func fromEnvironment(_ env: [String: String]) throws(ConfigurationError) -> AppKeys {
        let name = ServerConfiguration.Variable.appKeys
        var apps: [AppSettings] = []
        var owner: [String: String] = [:]
        for entry in (env[name] ?? "").split(separator: ",") {
            let text = entry.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            var (app, key) = (AppName.default, text)
            if let colon = text.firstIndex(of: ":"), AppName.isValid(String(text[..<colon])) {
                (app, key) = (String(text[..<colon]), String(text[text.index(after: colon)...]))
            }
            guard key.utf8.count >= 16, !key.contains(where: \.isWhitespace) else {
                throw ConfigurationError(
                    "\(name): every key must be at least 16 characters without spaces (APP:KEY or KEY)")
            }
            if let other = owner[key], other != app {
                throw ConfigurationError("\(name): one key belongs to two apps (\(other) and \(app))")
            }
            owner[key] = app
            if let index = apps.firstIndex(where: { $0.name == app }) {
                if !apps[index].keys.contains(key) { apps[index].keys.append(key) }
            } else {
                apps.append(AppSettings(name: app, keys: [key]))
            }
        }
        for (variable, value) in env where variable.hasPrefix("SCOREFEED_APP_") && !value.isEmpty {
            guard
                let suffix = [bundleIdsSuffix, firebaseProjectSuffix, androidTopicsSuffix].first(where: {
                    variable.hasSuffix("_" + $0)
                })
            else { continue }
            guard let index = apps.firstIndex(where: { variable == Self.variable($0.name, suffix) }) else {
                throw ConfigurationError("\(variable) names no app of \(name)")
            }
            if suffix == bundleIdsSuffix {
                let ids = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                for id in ids {
                    do {
                        try Activities.validate(bundleId: id)
                    } catch {
                        throw ConfigurationError("\(variable): \(error.reason)")
                    }
                }
                apps[index].bundleIds = ids
            } else if suffix == androidTopicsSuffix {
                guard let on = ["true": true, "false": false][value] else {
                    throw ConfigurationError("\(variable) must be true or false")
                }
                apps[index].androidTopics = on
            } else {
                guard FirebaseProjectId.isValid(value) else {
                    throw ConfigurationError("\(variable) must be a Firebase project id: \(FirebaseProjectId.rule)")
                }
                apps[index].firebaseProject = value
            }
        }
        return AppKeys(apps: apps)
    }
}
