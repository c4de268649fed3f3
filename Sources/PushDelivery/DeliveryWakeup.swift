import Foundation

/// Wakes a sleeping ``DeliveryWorker`` as soon as new pushes are committed, instead of at its next
/// poll: `serve` signals it on every `scorefeed_pushes` notification (the projector, its fan-out
/// and the tick scheduler notify when they write pushes). A signal while nobody waits is kept for
/// the next wait, so none is lost between a claim that found nothing and the sleep after it.
public final class DeliveryWakeup: @unchecked Sendable {
    private let lock = NSLock()
    private var signalled = false
    private var waiter: CheckedContinuation<Void, Never>?

    public init() {}

    /// Wakes the current wait, or the next one.
    public func signal() {
        lock.lock()
        let waking = waiter
        waiter = nil
        if waking == nil { signalled = true }
        lock.unlock()
        waking?.resume()
    }

    /// Returns when signalled (at once if a signal is pending) or after `seconds`, whichever comes
    /// first. One waiter at a time.
    public func wait(upTo seconds: Double) async {
        let timer = Task {
            try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
            signal()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if signalled {
                signalled = false
                lock.unlock()
                continuation.resume()
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
        timer.cancel()
        // A signal that raced the timer's own is not one to keep.
        lock.withLock { signalled = false }
    }
}
