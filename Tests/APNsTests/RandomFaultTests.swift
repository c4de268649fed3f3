import Retry
import Testing

@testable import APNsSandbox

@Suite("Random faults (the chaos run's APNs)")
struct RandomFaultTests {
    func draws(_ faults: RandomFaults, _ count: Int) -> [Fault?] {
        var generator = SplitMix64(seed: faults.seed)
        return (0..<count).map { _ in faults.draw(&generator) }
    }

    @Test("the same seed draws the same faults; another seed others")
    func replayable() {
        let faults = RandomFaults(rate: 0.3, seed: 42)
        #expect(draws(faults, 500) == draws(faults, 500))
        #expect(draws(faults, 500) != draws(RandomFaults(rate: 0.3, seed: 43), 500))
    }

    @Test("about the given share of requests gets a fault, of every kind, delays from 50 ms to 1 s")
    func mix() {
        let drawn = draws(RandomFaults(rate: 0.2, seed: 7), 10_000).compactMap { $0 }
        #expect((1_700...2_300).contains(drawn.count), "\(drawn.count) faults in 10,000")
        for kind in RandomFaults.kinds { #expect(drawn.contains(kind), "\(kind) never drawn") }
        let delays = drawn.compactMap { fault -> Duration? in
            if case .delay(let duration) = fault { duration } else { nil }
        }
        #expect(!delays.isEmpty)
        #expect(delays.allSatisfy { (Duration.milliseconds(50)...Duration.seconds(1)).contains($0) })
    }

    @Test("rate 0 never faults, rate 1 always; out-of-range rates are clamped")
    func bounds() {
        #expect(draws(RandomFaults(rate: 0, seed: 1), 1000).allSatisfy { $0 == nil })
        #expect(draws(RandomFaults(rate: 1, seed: 1), 1000).allSatisfy { $0 != nil })
        #expect(RandomFaults(rate: 7, seed: 1).rate == 1)
        #expect(RandomFaults(rate: -1, seed: 1).rate == 0)
    }
}
