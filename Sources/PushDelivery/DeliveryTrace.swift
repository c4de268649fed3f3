import ScoreStore
import Tracing

/// The span of one delivered batch (never one per push): a child of the first push's planning
/// context, linked to the others' (``TraceParent``), with the batch's size, kinds and answers.
enum DeliveryTrace {
    /// Starts the span of a batch about to be sent to `service` (`APNs`, `FCM`).
    static func start(_ batch: [OutboxPush], service: String) -> any Span {
        let span = TraceParent.startSpan(
            "deliver \(service) batch", following: batch.lazy.map(\.traceParent), ofKind: .client)
        if span.isRecording {
            span.attributes["scorefeed.push.service"] = service
            span.attributes["scorefeed.push.count"] = batch.count
            span.attributes["scorefeed.push.kind"] = Set(batch.map(\.event.rawValue)).sorted().joined(separator: ",")
        }
        return span
    }

    /// Ends a batch's span with the answers: how many of each outcome (`sent`, `retry`, …) and status.
    static func end(_ span: any Span, answers: some Sequence<Outbox.Attempt>) {
        if span.isRecording {
            var outcomes: [String: Int] = [:]
            var statuses: [String: Int] = [:]
            for answer in answers {
                outcomes[answer.outcome.label, default: 0] += 1
                statuses[answer.status.map(String.init) ?? "none", default: 0] += 1
            }
            span.attributes["scorefeed.push.outcomes"] = Self.counts(outcomes)
            span.attributes["scorefeed.push.statuses"] = Self.counts(statuses)
            for (outcome, count) in outcomes { span.attributes["scorefeed.push.\(outcome)"] = count }
        }
        span.end()
    }

    /// `a=1,b=2`, by name.
    static func counts(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }
}
