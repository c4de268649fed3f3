import PushDelivery
import Testing

@Suite("Delivery wake-up")
struct DeliveryWakeupTests {
    @Test func aSignalBeforeTheWaitIsKept() async {
        let wakeup = DeliveryWakeup()
        wakeup.signal()
        let started = ContinuousClock.now
        await wakeup.wait(upTo: 5)
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test func aSignalWakesAWaitAtOnce() async {
        let wakeup = DeliveryWakeup()
        let started = ContinuousClock.now
        Task {
            try? await Task.sleep(for: .milliseconds(50))
            wakeup.signal()
        }
        await wakeup.wait(upTo: 5)
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func withoutASignalTheWaitEndsAtItsTimeout() async {
        let wakeup = DeliveryWakeup()
        let started = ContinuousClock.now
        await wakeup.wait(upTo: 0.1)
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(90) && waited < .seconds(3))
        // The timeout leaves no signal behind for the next wait.
        let again = ContinuousClock.now
        await wakeup.wait(upTo: 0.1)
        #expect(ContinuousClock.now - again >= .milliseconds(90))
    }
}
