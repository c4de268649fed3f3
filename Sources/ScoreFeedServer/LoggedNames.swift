import PostgresClient

// What the server's values look like in a log line. ServiceLifecycle logs every service it starts
// and stops as "\(service)", and a struct's default description prints every stored property: the
// configuration's keys and secrets, database URLs with their passwords. Each service is named by its
// type alone, and the values holding secrets describe themselves without them.

extension ServerConfiguration: CustomStringConvertible, CustomDebugStringConvertible {
    /// The settings that are not secret, and of the secret ones only whether they are set.
    public var description: String {
        let read = readDatabaseURL.map { ConnectionTarget.redacted($0) } ?? "none"
        let secret = ingestSecret == nil ? "unset" : "set"
        return """
            ServerConfiguration(host: \(host), port: \(port), node: \(nodeId), ingest keys: \(ingestKeys.count), \
            ingest secret: \(secret), apps: \(appKeys.apps.map(\.name)), max body: \(maxBodyBytes) bytes, read database: \(read))
            """
    }

    public var debugDescription: String { description }
}

extension Database: CustomStringConvertible {
    /// The database's targets, without their passwords.
    public nonisolated var description: String {
        "Database(\(ConnectionTarget.redacted(url))\(readURL.map { ", reads: " + ConnectionTarget.redacted($0) } ?? ""))"
    }
}

extension ScoreFeedServer: CustomStringConvertible {
    public var description: String { "ScoreFeedServer(node: \(node.id))" }
}

extension DatabaseService: CustomStringConvertible { var description: String { "DatabaseService" } }
extension NodeService: CustomStringConvertible { var description: String { "NodeService" } }
extension LeaderService: CustomStringConvertible { var description: String { "LeaderService" } }
extension ChangeFeedService: CustomStringConvertible { var description: String { "ChangeFeedService" } }
extension DeliveryService: CustomStringConvertible { var description: String { "DeliveryService" } }
extension ChannelJanitorService: CustomStringConvertible { var description: String { "ChannelJanitorService" } }
extension DeliveryStarter: CustomStringConvertible {
    var description: String { "DeliveryStarter(\(name))" }
}

extension AppSettings: CustomStringConvertible {
    /// The app's name and settings, and of its keys only how many there are.
    public var description: String {
        "AppSettings(name: \(name), keys: \(keys.count), bundle ids: \(bundleIds))"
    }
}
