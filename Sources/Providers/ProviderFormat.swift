import Foundation
import ScoreDomain

/// One provider's document format: how to recognise its documents and turn them into the canonical
/// feed's messages (docs/providers.md). Pure: documents in, messages out, no I/O.
public protocol ProviderFormat: Sendable {
    /// The name `convert --format` and `replay --format` take, e.g. `"nhl-web"`.
    static var name: String { get }
    /// The sport its documents are of.
    static var sport: Sport { get }
    /// One line for `--help`: the provider and the document.
    static var summary: String { get }
    /// The member names ``detect(_:)`` and ``convert(_:)`` read, at any depth: ``ProviderFormats`` parses
    /// the format's documents keeping only these members (``JSONMemberFilter``), so the rest of a
    /// document (coordinates, descriptions, statistics) is checked but never built. A member read but
    /// not named here is missing to the format: `ProviderFilterTests` converts every fixture both ways.
    static var reads: JSONMemberFilter { get }
    /// Whether `document` is of this format (checked on its shape, cheaply).
    static func detect(_ document: JSONValue) -> Bool
    /// The game's messages in game order, from the documents of one game (a format may take a second
    /// document, such as a match file or a box score, named in its summary).
    /// - Throws: ``ConvertError`` naming the format and the field it could not read.
    static func convert(_ documents: [JSONValue]) throws(ConvertError) -> [FeedMessage]
}

/// Why a document could not be converted: the format, the field (a dotted path such as
/// `plays[12].periodDescriptor.number`) and the reason.
public struct ConvertError: Error, Sendable, Equatable, CustomStringConvertible {
    public var format: String
    public var field: String?
    public var reason: String

    public init(format: String, field: String? = nil, reason: String) {
        self.format = format
        self.field = field
        self.reason = reason
    }

    public var description: String {
        if let field { return "\(format): field \"\(field)\": \(reason)" }
        return "\(format): \(reason)"
    }
}

/// Every provider format, and the choice among them.
public enum ProviderFormats {
    /// Every format, in the order `--help` lists them. A new format is its file and its line here.
    public static let all: [any ProviderFormat.Type] = [
        NHLWeb.self, NHLStatsAPI.self, StatsBomb.self, NBALive.self, NBAStatsV3.self, SportradarNFL.self,
        SportradarSoccer.self, SportmonksV3.self, SportmonksV2.self, SportradarNBA.self, SportradarNCAAFB.self,
    ]

    /// The format named `name`.
    public static func named(_ name: String) -> (any ProviderFormat.Type)? {
        all.first { $0.name == name }
    }

    /// The members a document of `format` is parsed with; with no format named, those of every format
    /// (detection reads each format's own).
    public static func reads(_ format: (any ProviderFormat.Type)?) -> JSONMemberFilter {
        format?.reads ?? everyFormatReads
    }

    private static let everyFormatReads = all.dropFirst().reduce(all[0].reads) { $0.union($1.reads) }

    /// The format of `document`, if it is of a known one.
    public static func detect(_ document: JSONValue) -> (any ProviderFormat.Type)? {
        all.first { $0.detect(document) }
    }

    /// Parses the documents' bytes and converts them with `format` (`nil`: detected from the first).
    /// - Throws: ``ConvertError``, also for a document that is not JSON.
    public static func convert(_ documents: [Data], format: (any ProviderFormat.Type)?) throws(ConvertError)
        -> (format: any ProviderFormat.Type, messages: [FeedMessage])
    {
        var parsed: [JSONValue] = []
        for (index, bytes) in documents.enumerated() {
            do {
                parsed.append(try JSONValue.parse(bytes, keeping: reads(format)))
            } catch {
                throw ConvertError(
                    format: format?.name ?? "auto", reason: "document \(index + 1) is not JSON: \(error)")
            }
        }
        guard let first = parsed.first else {
            throw ConvertError(format: format?.name ?? "auto", reason: "no document")
        }
        let chosen: any ProviderFormat.Type
        if let format {
            chosen = format
        } else if let detected = detect(first) {
            chosen = detected
        } else {
            throw ConvertError(
                format: "auto",
                reason: "the document is of no known format (known: "
                    + all.map { $0.name }.joined(separator: ", ") + "); name one with --format")
        }
        return (chosen, try chosen.convert(parsed))
    }
}
