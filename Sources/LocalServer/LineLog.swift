import Foundation

/// A file that only grows, one line per record: the local servers' request logs (the APNs server's
/// `deliveries.jsonl`, the FCM server's `messages.jsonl`).
public struct LineLog: Sendable {
    private let file: FileHandle

    /// Opens `path` for appending, creating it when missing; `nil` when it cannot be written.
    /// - Parameter path: The file.
    public init?(path: String) {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { return nil }
        handle.seekToEndOfFile()
        file = handle
    }

    /// Appends `line` and a newline.
    /// - Parameter line: One record, without its newline.
    public func append(_ line: Data) {
        file.write(line + Data("\n".utf8))
    }

    /// Closes the file.
    public func close() { try? file.close() }
}
