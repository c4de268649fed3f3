import ScoreDomain

/// Reads typed members of a JSON object, naming the dotted path of any problem.
struct Fields {
    let members: JSONObject
    let path: String

    init(_ value: JSONValue, path: String) throws(MLBSnapshotError) {
        guard case .object(let members) = value else {
            throw MLBSnapshotError(.invalidField, field: path.isEmpty ? nil : path, "must be a JSON object")
        }
        self.members = members
        self.path = path
    }

    func name(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    private func present(_ key: String) -> JSONValue? {
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    private func missing(_ key: String) -> MLBSnapshotError {
        MLBSnapshotError(.missingField, field: name(key), "is required")
    }

    private func invalid(_ key: String, _ rule: String) -> MLBSnapshotError {
        MLBSnapshotError(.invalidField, field: name(key), rule)
    }

    func object(_ key: String) throws(MLBSnapshotError) -> Fields {
        guard let value = present(key) else { throw missing(key) }
        return try Fields(value, path: name(key))
    }

    func optionalObject(_ key: String) throws(MLBSnapshotError) -> Fields? {
        guard let value = present(key) else { return nil }
        return try Fields(value, path: name(key))
    }

    func optionalInt(_ key: String, in range: ClosedRange<Int>) throws(MLBSnapshotError) -> Int? {
        guard let value = present(key) else { return nil }
        guard case .int(let number) = value, range.contains(number) else {
            throw invalid(key, "must be an integer between \(range.lowerBound) and \(range.upperBound)")
        }
        return number
    }

    func int(_ key: String, in range: ClosedRange<Int>) throws(MLBSnapshotError) -> Int {
        guard let number = try optionalInt(key, in: range) else { throw missing(key) }
        return number
    }

    func optionalString(_ key: String) throws(MLBSnapshotError) -> String? {
        guard let value = present(key) else { return nil }
        guard case .string(let text) = value else { throw invalid(key, "must be a string") }
        return text
    }

    func string(_ key: String) throws(MLBSnapshotError) -> String {
        guard let text = try optionalString(key) else { throw missing(key) }
        return text
    }

    func optionalBool(_ key: String) throws(MLBSnapshotError) -> Bool? {
        guard let value = present(key) else { return nil }
        guard case .bool(let flag) = value else { throw invalid(key, "must be true or false") }
        return flag
    }

    func optionalArray(_ key: String) throws(MLBSnapshotError) -> [JSONValue]? {
        guard let value = present(key) else { return nil }
        guard case .array(let elements) = value else { throw invalid(key, "must be an array") }
        return elements
    }

    func has(_ key: String) -> Bool { present(key) != nil }

    func fail(_ key: String, _ rule: String) -> MLBSnapshotError { invalid(key, rule) }
}
