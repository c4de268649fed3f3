import ScoreStore
import Tracing

/// The span of one delivered batch (never one per push): a child of the first push's planning
/// context, linked to the others' (``TraceParent``), with the batch's route, size, kinds and answers.
/// Every route has it: pushes to activities (`activity`), broadcasts to channels (`channel`) and
/// push-to-start (`start`).
enum DeliveryTrace {
    /// Starts the span of a batch about to be sent to `service` (`APNs`, `FCM`).
    /// - Parameters:
    ///   - traceParents: each message's stored planning context, in the batch's order.
    ///   - kinds: each message's kind (`update`, `end`, `start`).
    static func start(
        service: String, route: String, count: Int, kinds: @autoclosure () -> Set<String>,
        following traceParents: some Sequence<String?>
    ) -> any Span {
        let span = TraceParent.startSpan("deliver \(service) batch", following: traceParents, ofKind: .client)
        if span.isRecording {
            span.attributes["scorefeed.push.service"] = service
            span.attributes["scorefeed.push.route"] = route
            span.attributes["scorefeed.push.count"] = count
            span.attributes["scorefeed.push.kind"] = kinds().sorted().joined(separator: ",")
        }
        return span
    }

    /// A batch of pushes to activities.
    static func start(_ batch: [TargetPush], service: String) -> any Span {
        start(
            service: service, route: "activity", count: batch.count, kinds: Set(batch.map(\.event.rawValue)),
            following: batch.lazy.map(\.traceParent))
    }

    /// Ends a batch's span with the answers: how many of each outcome (`sent`, `retry`, …) and status.
    static func end(_ span: any Span, answers: some Sequence<(outcome: String, status: Int?)>) {
        if span.isRecording {
            var outcomes: [String: Int] = [:]
            var statuses: [String: Int] = [:]
            for answer in answers {
                outcomes[answer.outcome, default: 0] += 1
                statuses[answer.status.map(String.init) ?? "none", default: 0] += 1
            }
            span.attributes["scorefeed.push.outcomes"] = Self.counts(outcomes)
            span.attributes["scorefeed.push.statuses"] = Self.counts(statuses)
            for (outcome, count) in outcomes { span.attributes["scorefeed.push.\(outcome)"] = count }
        }
        span.end()
    }

    /// Ends a batch of pushes to activities.
    static func end(_ span: any Span, answers: some Sequence<Outbox.Attempt>) {
        end(span, answers: answers.lazy.map { (outcome: $0.outcome.label, status: $0.status) })
    }

    /// `a=1,b=2`, by name.
    static func counts(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }
}
