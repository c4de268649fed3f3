import Foundation

/// Reads a Retrosheet event file (`2019ANA.EVA`, `.EVN`): one result per game, in file order.
///
/// Wherever Retrosheet data is used or shipped this notice must appear prominently:
/// > The information used here was obtained free of charge from and is copyrighted by Retrosheet.
/// > Interested parties may contact Retrosheet at "www.retrosheet.org".
///
/// A game that breaks the spec (unknown record type, truncated line, unparsable play, impossible
/// advance, …) becomes a `.failure` with the file name, line and reason; the games before and after
/// it are still returned, so a caller can store the good ones and go on (`--keep-going`).
public enum RetrosheetFile {
    /// Parses an event file held in memory. `name` is used in errors and ``RetrosheetGame/file``.
    /// Lines may end in LF or CRLF. Records before the first `id` give one failure.
    public static func parse(bytes: [UInt8], name: String) -> [Result<RetrosheetGame, RetrosheetError>] {
        var scanner = RecordScanner(bytes: bytes)
        var results: [Result<RetrosheetGame, RetrosheetError>] = []
        var game: GameBuilder?
        var failure: RetrosheetError?
        var outsideGame = false

        func close() {
            if let failure {
                results.append(.failure(failure))
            } else if let game {
                results.append(Result { () throws(RetrosheetError) in try game.finish() })
            }
            game = nil
            failure = nil
        }

        while let line = scanner.next() {
            if scanner.field(line.fields[0], is: "id") {
                close()
                outsideGame = false
                let id = line.fields.count > 1 ? scanner.string(line.fields[1]) : ""
                if line.fields.count != 2 || line.unterminatedQuote {
                    failure = RetrosheetError(
                        kind: .truncatedLine, file: name, line: line.number, reason: "id record needs exactly 2 fields")
                } else if !isValidGameId(id) {
                    failure = RetrosheetError(
                        kind: .invalidValue, file: name, line: line.number,
                        reason: "game id \"\(id)\" must be 1 to 64 characters of A-Z, a-z, 0-9, '.', '_' or '-'")
                }
                game = GameBuilder(id: id, file: name, line: line.number)
            } else if game == nil {
                if !outsideGame {
                    outsideGame = true
                    let type = scanner.string(line.fields[0])
                    results.append(
                        .failure(
                            RetrosheetError(
                                kind: .unknownRecord, file: name, line: line.number,
                                reason: "\"\(type)\" record before the first id record")))
                }
            } else if failure == nil {
                do {
                    try game!.record(line, scanner)
                } catch {
                    failure = error
                }
            }
        }
        close()
        return results
    }

    /// Reads and parses the file at `url`; its last path component is the name used in errors.
    /// - Throws: ``RetrosheetError`` of kind `unreadable` when the file cannot be read.
    public static func parse(contentsOf url: URL) throws(RetrosheetError) -> [Result<RetrosheetGame, RetrosheetError>] {
        let name = url.lastPathComponent
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw RetrosheetError(kind: .unreadable, file: name, line: 0, reason: "cannot read the file: \(error)")
        }
        return parse(bytes: [UInt8](data), name: name)
    }

    /// `[A-Za-z0-9._-]{1,64}`, the canonical feed's game id rule.
    static func isValidGameId(_ id: String) -> Bool {
        guard (1...64).contains(id.utf8.count) else { return false }
        return id.utf8.allSatisfy { byte in
            Ascii.isDigit(byte) || Ascii.isLetter(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }
}
