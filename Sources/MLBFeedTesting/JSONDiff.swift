import MLBFeed
import ScoreDomain

/// Makes an RFC 6902 patch turning one JSON document into another, as a GUMBO `diffPatch` answer does:
/// `test` of the old `metaData.timeStamp` first, then `remove`, `add` and `replace` operations.
public enum JSONDiff {
    /// The operations (as JSON objects) that turn `old` into `new`.
    public static func operations(from old: JSONValue, to new: JSONValue) -> [JSONValue] {
        var operations: [JSONValue] = []
        if let stamp = JSONPointer(tokens: ["metaData", "timeStamp"]).resolve(in: old) {
            operations.append(.object(["op": .string("test"), "path": .string("/metaData/timeStamp"), "value": stamp]))
        }
        diff(old, new, path: [], into: &operations)
        return operations
    }

    private static func diff(_ old: JSONValue, _ new: JSONValue, path: [String], into operations: inout [JSONValue]) {
        switch (old, new) {
        case (.object(let a), .object(let b)):
            for key in a.keys.sorted() where b[key] == nil {
                operations.append(op("remove", path + [key]))
            }
            for key in b.keys.sorted() {
                if let before = a[key] {
                    diff(before, b[key]!, path: path + [key], into: &operations)
                } else {
                    operations.append(op("add", path + [key], b[key]!))
                }
            }
        case (.array(let a), .array(let b)):
            let common = min(a.count, b.count)
            for index in 0..<common {
                diff(a[index], b[index], path: path + [String(index)], into: &operations)
            }
            if b.count > common {
                for index in common..<b.count {
                    operations.append(op("add", path + [index == b.count - 1 ? "-" : String(index)], b[index]))
                }
            }
            if a.count > common {
                for index in stride(from: a.count - 1, through: common, by: -1) {
                    operations.append(op("remove", path + [String(index)]))
                }
            }
        default:
            if old != new { operations.append(op("replace", path, new)) }
        }
    }

    private static func op(_ name: String, _ path: [String], _ value: JSONValue? = nil) -> JSONValue {
        var members: JSONObject = [
            "op": .string(name), "path": .string(JSONPointer(tokens: path).description),
        ]
        if let value { members["value"] = value }
        return .object(members)
    }
}
