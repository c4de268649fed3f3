import MLBFeed
import ScoreDomain

/// What `diffPatch` answered: patches to apply in order, or a whole document (the provider sends the
/// whole feed when it has no patches from that timecode).
public enum MLBPatchResponse: Sendable, Equatable {
    case patches([JSONPatch])
    case document(JSONValue)

    /// Reads `[{"diff": [operations]}, …]` or a document object.
    /// - Throws: ``JSONPatchError`` (`invalid-patch`) for anything else.
    public init(json: JSONValue) throws(JSONPatchError) {
        switch json {
        case .object:
            self = .document(json)
        case .array(let entries):
            var patches: [JSONPatch] = []
            for (index, entry) in entries.enumerated() {
                guard case .object(let members) = entry, let diff = members["diff"] else {
                    throw JSONPatchError(.invalidPatch, "diffPatch entry \(index) must be an object with \"diff\"")
                }
                do throws(JSONPatchError) {
                    patches.append(try JSONPatch(parsing: diff))
                } catch {
                    throw JSONPatchError(error.code, "diffPatch entry \(index): \(error)")
                }
            }
            self = .patches(patches)
        default:
            throw JSONPatchError(.invalidPatch, "a diffPatch answer must be an array of {\"diff\": […]} or a document")
        }
    }
}
