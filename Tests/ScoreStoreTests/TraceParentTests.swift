import Foundation
import PostgresClient
import ScoreDomain
import ScoreFeedTesting
import ScoreStore
import Testing

@Suite("trace context: each event keeps its request's traceparent")
struct TraceParentTests {
    static let first = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    static let second = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

    @Test("stored with each appended event and read back; none for a call without one")
    func storedPerCall() async throws {
        try await withStore { connection in
            let ingestor = Ingestor(connection: connection)
            _ = try await ingestor.ingest([try message(scheduledJSON)], traceParent: Self.first)
            let started = #"{"id":"m2","gameId":"g1","at":"2026-04-01T17:10:00Z","type":"game.started"}"#
            let run = #"{"id":"r1","gameId":"g1","at":"2026-04-01T17:20:00Z","type":"run.scored","team":"home"}"#
            _ = try await ingestor.ingest([try message(started)], traceParent: Self.second)
            // A duplicate takes no event, so it stores no context either.
            let outcomes = try await ingestor.ingest([try message(run), try message(scheduledJSON)])
            #expect(outcomes == [.appended(position: 3, version: 3), .duplicate(position: 1)])
            let events = try await connection.withSession { try EventLog.readAll(afterPosition: 0, in: $0) }
            #expect(events.map(\.message.id) == ["m1", "m2", "r1"])
            #expect(events.map(\.traceParent) == [Self.first, Self.second, nil])
            // Without a tracer (none is bootstrapped here) the planned pushes carry none, and a row
            // written before the column existed reads as none too.
            #expect(TraceParent.context(Self.first) == nil)
            #expect(TraceParent.of(.topLevel) == nil)
        }
    }
}
