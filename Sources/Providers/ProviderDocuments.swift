import Foundation
import ScoreDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Provider documents read from files with as little memory as the parsed tree itself: a file is
/// mapped rather than copied, parsed in place and unmapped before the next one is read, so a
/// conversion never holds a document's bytes beside its tree (issue 27: a 50 MB document converts
/// with peak memory under four times its size, docs/performance.md).
public enum ProviderDocuments {
    /// Why a file could not be read or parsed.
    public enum ReadError: Error, Sendable, CustomStringConvertible {
        /// The file could not be opened or read.
        case unreadable(String)
        /// The file's text is not JSON.
        case syntax(JSONSyntaxError)

        public var description: String {
            switch self {
            case .unreadable(let reason): "cannot read the file: \(reason)"
            case .syntax(let error): "\(error)"
            }
        }
    }

    /// The parsed document of the file at `path` (only the members `filter` keeps; `nil`: all), its bytes
    /// released once parsed.
    ///
    /// A regular file is mapped read-only and unmapped after the parse; anything else (a pipe, an
    /// empty file) is read into memory as before.
    /// - Throws: ``ReadError``.
    public static func parse(contentsOf path: String, keeping filter: JSONMemberFilter? = nil) throws(ReadError)
        -> JSONValue
    {
        if let mapped = map(path) {
            defer { munmap(mapped.base, mapped.count) }
            let data = Data(bytesNoCopy: mapped.base, count: mapped.count, deallocator: .none)
            do {
                return try JSONValue.parse(data, keeping: filter)
            } catch {
                throw .syntax(error)
            }
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(error.localizedDescription)
        }
        do {
            return try JSONValue.parse(data, keeping: filter)
        } catch {
            throw .syntax(error)
        }
    }

    /// The documents converted with `format` (`nil`: detected from the first), as
    /// ``ProviderFormats/convert(_:format:)`` does with the documents' bytes.
    /// - Throws: ``ConvertError`` for a document of no known format or one the format cannot read.
    public static func convert(_ documents: [JSONValue], format: (any ProviderFormat.Type)?) throws(ConvertError)
        -> (format: any ProviderFormat.Type, messages: [FeedMessage])
    {
        guard let first = documents.first else {
            throw ConvertError(format: format?.name ?? "auto", reason: "no document")
        }
        guard let chosen = format ?? ProviderFormats.detect(first) else {
            throw ConvertError(
                format: "auto",
                reason: "the document is of no known format (known: "
                    + ProviderFormats.all.map { $0.name }.joined(separator: ", ") + "); name one with --format")
        }
        return (chosen, try chosen.convert(documents))
    }

    /// The file mapped read-only, or `nil` when it is not a non-empty regular file that maps.
    private static func map(_ path: String) -> (base: UnsafeMutableRawPointer, count: Int)? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else {
            return nil
        }
        let count = Int(status.st_size)
        guard let base = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0), base != MAP_FAILED else {
            return nil
        }
        return (base, count)
    }
}
