import Tracing

/// A W3C `traceparent` as stored with an event or a planned push: how a trace crosses processes and
/// nodes through the database. The stored text is whatever the bootstrapped instrument injects (with
/// no tracer bootstrapped, nothing: `nil`); it is read back the same way, so a row of a build without
/// tracing, or a malformed value, simply starts nothing.
public enum TraceParent {
    /// The header the context travels in.
    public static let header = "traceparent"

    /// Whether a tracer is bootstrapped: work done only to trace (a query for stored contexts) is
    /// skipped when it is not.
    public static var isOn: Bool {
        let instrument = InstrumentationSystem.instrument
        return !(instrument is NoOpInstrument || instrument is NoOpTracer)
    }

    /// The `traceparent` of `context` (a span's), or `nil` when no instrument is bootstrapped.
    public static func of(_ context: InstrumentationContext) -> String? {
        var carrier: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &carrier, using: DictionaryCarrier())
        return carrier[header]
    }

    /// The context a stored `traceparent` stands for (`nil` when there is none or it is not understood).
    public static func context(_ traceParent: String?) -> InstrumentationContext? {
        guard let traceParent else { return nil }
        var context = InstrumentationContext.topLevel
        InstrumentationSystem.instrument.extract([header: traceParent], into: &context, using: DictionaryCarrier())
        return of(context) == nil ? nil : context
    }

    /// At most this many links on one span (a page of thousands of events links to the first ones).
    public static let maxLinks = 32

    /// Starts a span that continues the stored contexts: a child of the first one, linked to the other
    /// distinct ones (at most ``maxLinks``); a new trace when none is stored. End it with `end()`.
    public static func startSpan(
        _ name: String, following traceParents: some Sequence<String?>, ofKind kind: SpanKind = .internal
    ) -> any Span {
        // Tracing off: a no-op span, without walking the stored contexts (one per push of a batch).
        guard isOn else { return Tracing.startSpan(name, context: .topLevel, ofKind: kind) }
        var parent: InstrumentationContext?
        var linked: Set<String> = []
        var links: [InstrumentationContext] = []
        for case let traceParent? in traceParents {
            guard linked.count <= maxLinks else { break }
            guard linked.insert(traceParent).inserted, let context = context(traceParent) else { continue }
            if parent == nil { parent = context } else { links.append(context) }
        }
        let span = Tracing.startSpan(name, context: parent ?? .topLevel, ofKind: kind)
        for link in links { span.addLink(SpanLink(context: link, attributes: [:])) }
        return span
    }
}

/// Reads and writes header values in a dictionary (the carrier of a stored `traceparent`).
struct DictionaryCarrier: Extractor, Injector {
    func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }

    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
}
