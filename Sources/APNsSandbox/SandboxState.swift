import Foundation
import LocalServer
import NIOConcurrencyHelpers
import Retry

/// The mutable state of a running sandbox: records, the fault queue and request counters.
///
/// Synchronous (a lock), because requests are handled on the event loop.
final class SandboxState: Sendable {
    private struct State {
        var records: [Delivery] = []
        var faults: [ScriptedFault]
        var random: RandomFaults?
        var generator: SplitMix64
        var requestsInFlight = 0
        var peakRequestsInFlight = 0
        var log: DeliveryLog?
    }

    private let state: NIOLockedValueBox<State>

    init(faults: [ScriptedFault], random: RandomFaults? = nil, deliveryLog: String?) throws(APNsSandboxError) {
        state = NIOLockedValueBox(
            State(
                faults: faults, random: random, generator: SplitMix64(seed: random?.seed ?? 0),
                log: try deliveryLog.map(DeliveryLog.init(path:))))
    }

    // MARK: Records

    /// Keeps `delivery` (and appends it to the delivery log, in the same order).
    func record(_ delivery: Delivery) {
        state.withLockedValue { state in
            state.records.append(delivery)
            state.log?.append(delivery)
        }
    }

    func deliveries() -> [Delivery] { state.withLockedValue { $0.records } }

    func removeAllDeliveries() { state.withLockedValue { $0.records.removeAll() } }

    // MARK: Faults

    func inject(_ fault: ScriptedFault) { state.withLockedValue { $0.faults.append(fault) } }

    func pendingFaults() -> [ScriptedFault] { state.withLockedValue { $0.faults } }

    func removeAllFaults() { state.withLockedValue { $0.faults.removeAll() } }

    /// Consumes one use of the first queued fault matching `token`; without one, draws a random fault
    /// when the sandbox has a random mix.
    func takeFault(token: String?) -> Fault? {
        state.withLockedValue { state in
            guard let index = state.faults.firstIndex(where: { $0.matches(token: token) }) else {
                return state.random?.draw(&state.generator)
            }
            let fault = state.faults[index].fault
            state.faults[index].count -= 1
            if state.faults[index].count == 0 { state.faults.remove(at: index) }
            return fault
        }
    }

    // MARK: Requests in flight

    func requestStarted() {
        state.withLockedValue { state in
            state.requestsInFlight += 1
            state.peakRequestsInFlight = max(state.peakRequestsInFlight, state.requestsInFlight)
        }
    }

    func requestFinished() { state.withLockedValue { $0.requestsInFlight -= 1 } }

    func peakConcurrentRequests() -> Int { state.withLockedValue { $0.peakRequestsInFlight } }

    /// Closes the delivery log; later records are only kept in memory.
    func close() {
        state.withLockedValue { state in
            state.log?.close()
            state.log = nil
        }
    }
}

/// The optional JSON-lines file of recorded requests.
private struct DeliveryLog {
    let file: LineLog
    let encoder = JSONEncoder()

    init(path: String) throws(APNsSandboxError) {
        guard let file = LineLog(path: path) else {
            throw APNsSandboxError(.cannotWriteFile, "cannot open delivery log \(path)")
        }
        self.file = file
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    func append(_ delivery: Delivery) {
        guard let line = try? encoder.encode(DeliveryLogLine(delivery)) else { return }
        file.append(line)
    }

    func close() { file.close() }
}
