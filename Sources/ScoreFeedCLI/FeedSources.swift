import Foundation
import Retrosheet
import ScoreStore

/// The inputs of `scorefeed replay`: files, or folders of them, in a given format.
package enum FeedSources {
    /// The files named, with folders expanded to the files in them whose name fits `accept`, sorted.
    package static func expand(_ paths: [String], accept: (String) -> Bool) throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw CLIError("\(path): no such file or folder")
            }
            if isFolder.boolValue {
                let names = try FileManager.default.contentsOfDirectory(atPath: path).filter(accept).sorted()
                guard !names.isEmpty else { throw CLIError("\(path): no feed files in this folder") }
                files += names.map { URL(fileURLWithPath: path).appendingPathComponent($0).path }
            } else {
                files.append(path)
            }
        }
        return files
    }

    /// A Retrosheet event file name: `2019ANA.EVA`, `2019CHN.EVN`, `….EVE`, `….EVF`.
    package static func isEventFile(_ name: String) -> Bool {
        let upper = name.uppercased()
        return [".EVA", ".EVN", ".EVE", ".EVF"].contains { upper.hasSuffix($0) }
    }

    /// Retrosheet games of the event files, in file order, each as its canonical messages, or the
    /// error that stopped it. Team names come from a `TEAMyyyy` file beside the event files.
    package static func retrosheetGames(_ files: [String]) throws -> [Result<[SourcedMessage], RetrosheetError>] {
        var teamsByFolder: [String: RetrosheetTeams] = [:]
        var games: [Result<[SourcedMessage], RetrosheetError>] = []
        for file in files {
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
            if teamsByFolder[folder.path] == nil { teamsByFolder[folder.path] = try teams(in: folder) }
            let teams = teamsByFolder[folder.path]
            let parsed: [Result<RetrosheetGame, RetrosheetError>]
            do {
                parsed = try RetrosheetFile.parse(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw CLIError("\(error)")
            }
            for result in parsed {
                games.append(
                    result.map { game in
                        game.messages(teams: teams).map { SourcedMessage(message: $0, file: file, line: game.line) }
                    })
            }
        }
        return games
    }

    /// The `TEAMyyyy` file of a folder (the newest when there are several), if any.
    private static func teams(in folder: URL) throws -> RetrosheetTeams? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        guard let name = names.filter({ $0.hasPrefix("TEAM") && $0.count == 8 }).sorted().last else { return nil }
        do {
            return try RetrosheetTeams.parse(contentsOf: folder.appendingPathComponent(name))
        } catch {
            throw CLIError("\(error)")
        }
    }
}
