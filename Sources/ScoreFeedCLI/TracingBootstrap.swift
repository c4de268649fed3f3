import ArgumentParser
import OTel
import ServiceLifecycle
import Tracing

/// Traces through OpenTelemetry (OTLP over HTTP), set up from the standard `OTEL_*` variables by the
/// commands that run for long and deliver (`serve`, `deliver`). Off unless an OTLP endpoint is set
/// (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`): then no tracer is
/// bootstrapped (every span is a no-op) and no exporter runs. Metrics stay on Prometheus and logs on
/// stderr: OpenTelemetry takes over neither.
enum TracingBootstrap {
    /// The OTLP protocols this build exports with (the gRPC exporter is not built in).
    static let protocols = ["http/protobuf", "http/json"]

    /// Whether `environment` turns tracing on: an OTLP endpoint is set, `OTEL_SDK_DISABLED` is not
    /// `true` and `OTEL_TRACES_EXPORTER` is `otlp` (or unset).
    /// - Throws: `ValidationError` naming the variable when it asks for what this build cannot do (a
    ///   protocol other than ``protocols``, an exporter other than `otlp` or `none`).
    static func isEnabled(_ environment: [String: String]) throws -> Bool {
        func value(_ name: String) -> String? {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return text
        }
        guard value("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") ?? value("OTEL_EXPORTER_OTLP_ENDPOINT") != nil else {
            return false
        }
        if value("OTEL_SDK_DISABLED")?.lowercased() == "true" { return false }
        switch value("OTEL_TRACES_EXPORTER")?.lowercased() {
        case nil, "otlp": break
        case "none": return false
        case let other?:
            throw ValidationError("OTEL_TRACES_EXPORTER must be otlp or none, not \"\(other.prefix(40))\"")
        }
        for name in ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"] {
            guard let text = value(name) else { continue }
            guard protocols.contains(text.lowercased()) else {
                throw ValidationError(
                    "\(name) must be one of \(protocols.joined(separator: ", ")) (this build exports OTLP over HTTP only), not \"\(text.prefix(40))\""
                )
            }
            break
        }
        return true
    }

    /// Bootstraps the process's tracer when `environment` turns tracing on (``isEnabled(_:)``): the rest
    /// of the `OTEL_*` variables (sampler, batch processor, headers, timeout, resource, …) are read by
    /// swift-otel. Call once per process.
    /// - Returns: the exporter's service, to run in the command's service group (its graceful shutdown
    ///   flushes the spans); `nil` when tracing is off.
    /// - Throws: `ValidationError` for a setting this build cannot follow; swift-otel's configuration errors.
    static func bootstrap(_ environment: [String: String]) throws -> (any Service)? {
        guard try isEnabled(environment) else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "scorefeed"
        configuration.diagnosticLogger = .custom(Runtime.logger)
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        InstrumentationSystem.bootstrap(backend.factory)
        Runtime.logger.info("tracing on: spans are exported over OTLP/HTTP")
        return backend.service
    }

    /// Runs `body` with tracing set up from `environment` (``bootstrap(_:)``) for a command without a
    /// service group of its own: the exporter runs beside `body` and is shut down gracefully after it
    /// (flushing its spans), whether `body` returns or throws.
    static func withTracing<T: Sendable>(
        _ environment: [String: String], _ body: @Sendable () async throws -> T
    ) async throws -> T {
        guard let exporter = try bootstrap(environment) else { return try await body() }
        let group = ServiceGroup(services: [exporter], gracefulShutdownSignals: [], logger: Runtime.logger)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let result: Result<T, any Error>
            do {
                result = .success(try await body())
            } catch {
                result = .failure(error)
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return try result.get()
        }
    }
}
