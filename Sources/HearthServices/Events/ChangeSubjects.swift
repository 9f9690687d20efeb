import FoundationEssentials

/// A change payload that names the objects it touched, by global id, so the change log can list
/// them on the change's row (column `objects`) and offline sync can read them again without
/// understanding the payload's kind.
///
/// A payload lists every object whose state a client shows differently after the change: the
/// object itself, and its parent where the parent shows something derived from it (a habit's
/// "done today" after an event). Ids a payload does not carry, such as those a cascading delete
/// removed, are passed to ``ChangeLog/record(topic:kind:payload:touching:in:)`` as `touching`.
public protocol ChangeSubjects {
    /// The global ids of the objects the change touched.
    var touchedObjectIDs: [String] { get }
}

/// The `objects` column of the change log: ids without repeats, stored as a JSON array.
enum ChangeObjects {
    /// `ids` without repeats, in first-seen order.
    static func unique(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }

    /// The stored form of `ids`: a JSON array of strings.
    static func json(_ ids: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(ids), as: UTF8.self)
    }

    /// The ids of a stored `objects` column.
    /// - Throws: `DecodingError` when the text is not a JSON array of strings.
    static func ids(json: String) throws -> [String] {
        try JSONDecoder().decode([String].self, from: Data(json.utf8))
    }
}
