import Foundation
import ScoreDomain

/// Parses one canonical message written as a JSON literal in a test.
func message(_ json: String) throws -> FeedMessage {
    try FeedParser.parse(json)
}

let scheduledJSON = """
    {"id":"m1","gameId":"g1","at":"2026-04-01T17:00:00Z","type":"game.scheduled",\
    "home":{"code":"BOS","name":"Boston Red Sox","logo":""},"away":{"code":"NYY","name":"New York Yankees","logo":""},\
    "startsAt":"2026-04-01T17:10:00Z"}
    """
