import Foundation
import Providers
import ScoreDomain
import ScoreFeedTesting
import Testing

/// Each format's ``ProviderFormat/reads``: converting a document parsed with only those members kept
/// gives exactly what converting the whole tree gives (the same messages, or the same error), for
/// every fixture of the format, alone and with each companion of its folder, and detected as well as
/// named. A member a format reads but does not name would be missing here.
@Suite("Provider formats: the members each format names are all it reads")
struct ProviderFilterTests {
    @Test("filtered and whole documents convert alike", arguments: ProviderFormats.all.map { $0.name })
    func alike(_ name: String) throws {
        let format = try #require(ProviderFormats.named(name))
        let folder = URL(fileURLWithPath: fixture("providers/\(name)"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
            .sorted()
        let documents = try files.map { try Data(contentsOf: folder.appendingPathComponent($0)) }
        var compared = 0
        for (index, first) in documents.enumerated() {
            for other in [nil] + documents.indices.filter({ $0 != index }) {
                let game = [first] + (other.map { [documents[$0]] } ?? [])
                let label = ([files[index]] + (other.map { [files[$0]] } ?? [])).joined(separator: " + ")
                for named in [format, nil] as [(any ProviderFormat.Type)?] {
                    let filtered = outcome { () throws(ConvertError) in
                        try ProviderFormats.convert(game, format: named).messages
                    }
                    let whole = outcome { () throws(ConvertError) in
                        try ProviderDocuments.convert(game.map { try! JSONValue.parse($0) }, format: named).messages
                    }
                    #expect(filtered == whole, "\(label), format \(named?.name ?? "auto")")
                    if case .success = whole { compared += 1 }
                }
            }
        }
        #expect(compared > 0, "no fixture of \(name) converts")
    }

    private func outcome(_ body: () throws(ConvertError) -> [FeedMessage]) -> Result<[FeedMessage], ConvertError> {
        Result { () throws(ConvertError) in try body() }
    }
}
