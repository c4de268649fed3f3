import Foundation

/// The mutable state of a running sandbox: records, the fault queue and request counters.
actor SandboxState {
    private var records: [Delivery] = []
    private var faults: [ScriptedFault]
    private var requestsInFlight = 0
    private var peakRequestsInFlight = 0
    private var logFile: FileHandle?

    init(faults: [ScriptedFault], deliveryLog: String?) throws(APNsSandboxError) {
        self.faults = faults
        guard let deliveryLog else {
            self.logFile = nil
            return
        }
        if !FileManager.default.fileExists(atPath: deliveryLog) {
            _ = FileManager.default.createFile(atPath: deliveryLog, contents: nil)
        }
        guard let handle = FileHandle(forWritingAtPath: deliveryLog) else {
            throw APNsSandboxError(.cannotWriteFile, "cannot open delivery log \(deliveryLog)")
        }
        handle.seekToEndOfFile()
        self.logFile = handle
    }

    // MARK: Records

    func record(_ delivery: Delivery) {
        records.append(delivery)
        guard let logFile else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if let line = try? encoder.encode(DeliveryLogLine(delivery)) {
            logFile.write(line + Data("\n".utf8))
        }
    }

    func deliveries() -> [Delivery] { records }

    func removeAllDeliveries() { records.removeAll() }

    // MARK: Faults

    func inject(_ fault: ScriptedFault) { faults.append(fault) }

    func pendingFaults() -> [ScriptedFault] { faults }

    func removeAllFaults() { faults.removeAll() }

    /// Consumes one use of the first queued fault matching `token`.
    func takeFault(token: String?) -> Fault? {
        guard let index = faults.firstIndex(where: { $0.matches(token: token) }) else { return nil }
        let fault = faults[index].fault
        faults[index].count -= 1
        if faults[index].count == 0 { faults.remove(at: index) }
        return fault
    }

    // MARK: Requests in flight

    func requestStarted() {
        requestsInFlight += 1
        peakRequestsInFlight = max(peakRequestsInFlight, requestsInFlight)
    }

    func requestFinished() { requestsInFlight -= 1 }

    func peakConcurrentRequests() -> Int { peakRequestsInFlight }

    func close() {
        try? logFile?.close()
        logFile = nil
    }
}
