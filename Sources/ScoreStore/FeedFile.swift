import Foundation
import ScoreDomain

/// A message read from a JSON Lines file, with where it came from.
public struct SourcedMessage: Sendable, Equatable {
    public var message: FeedMessage
    public var file: String
    public var line: Int

    public init(message: FeedMessage, file: String, line: Int) {
        self.message = message
        self.file = file
        self.line = line
    }
}

/// A feed file that could not be read, naming the file, the line and the field.
public struct FeedFileError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var reason: String

    public var description: String {
        line.map { "\(file):\($0): \(reason)" } ?? "\(file): \(reason)"
    }
}

/// Reads canonical JSON Lines feed files.
public enum FeedFile {
    /// Parses every non-blank line of `path`; the first bad line is an error and nothing is returned.
    public static func read(_ path: String) throws -> [SourcedMessage] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw FeedFileError(file: path, line: nil, reason: "cannot read the file: \(error.localizedDescription)")
        }
        var messages: [SourcedMessage] = []
        var lineNumber = 0
        for rawLine in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = rawLine
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.allSatisfy({ $0 == 32 || $0 == 9 }) { continue }
            do {
                let message = try FeedParser.parse(Data(line), line: lineNumber)
                messages.append(SourcedMessage(message: message, file: path, line: lineNumber))
            } catch {
                throw FeedFileError(file: path, line: lineNumber, reason: error.reasonWithoutLine)
            }
        }
        return messages
    }
}

extension FeedError {
    /// The reason without the `line N:` prefix, for callers that print their own location.
    var reasonWithoutLine: String {
        var copy = self
        copy.line = nil
        return copy.description
    }
}
