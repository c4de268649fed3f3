/// The delays of both local servers' fault specs (`delay:250ms`, `delay:2s`).
public enum FaultTiming {
    /// A delay written `<n>ms` or `<x>s`, from 0 to `atMostSeconds`; `nil` otherwise.
    public static func parseDelay(_ text: Substring, atMostSeconds: Int) -> Duration? {
        if text.hasSuffix("ms"), let value = Int64(text.dropLast(2)), (0...Int64(atMostSeconds) * 1000).contains(value)
        {
            return .milliseconds(value)
        }
        if text.hasSuffix("s"), !text.hasSuffix("ms"), let value = Double(text.dropLast()), value.isFinite,
            (0...Double(atMostSeconds)).contains(value)
        {
            return .milliseconds(Int64((value * 1000).rounded()))
        }
        return nil
    }

    /// `duration` in whole milliseconds, as fault descriptions write it.
    public static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
