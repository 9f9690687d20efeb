import Synchronization

/// Column names of a result set and a case-insensitive name lookup, built once per prepared
/// statement (see `Statement.columns`) and shared by its rows, with where each
/// ``FetchableRecord`` type read from them finds its columns.
final class ColumnIndex: Sendable {
    let names: [String]
    private let exactPositions: [String: Int]
    private let foldedPositions: [String: Int]
    /// Up to this many columns, a name is found by comparing names in order, which costs less
    /// than hashing it (most rows have a handful of columns, read in select order).
    private static let linearSearchLimit = 16

    /// The record layouts read from this result set and their positions (see
    /// ``positions(of:)``). A statement serves one or two record types, so a short list.
    private let recordPositions = Mutex<[(columns: RecordColumns, positions: [Int]?)]>([])

    init(names: [String]) {
        self.names = names
        var exact: [String: Int] = [:]
        var folded: [String: Int] = [:]
        // The first column wins when a join yields duplicate names, as in SQLite's own lookup.
        for (index, name) in names.enumerated().reversed() {
            exact[name] = index
            folded[name.lowercased()] = index
        }
        self.exactPositions = exact
        self.foldedPositions = folded
    }

    /// The position of a column: exact spelling first, then case-insensitively like SQL.
    func index(of name: String) -> Int? {
        if names.count <= Self.linearSearchLimit {
            if let index = names.firstIndex(of: name) { return index }
        } else if let index = exactPositions[name] {
            return index
        }
        return foldedPositions[name.lowercased()]
    }

    /// Where the columns of `record` are in this result set: `nil` when the result's columns
    /// start with the record's, in order (what `SELECT \(Record.columns), …` gives), otherwise
    /// one position per record column, `-1` for a column the result lacks. Looked up by name
    /// once per prepared statement and record type, then kept.
    func positions(of record: RecordColumns) -> [Int]? {
        recordPositions.withLock { known in
            if let entry = known.first(where: { $0.columns === record }) { return entry.positions }
            let positions: [Int]? = names.starts(with: record.names) ? nil : record.names.map { index(of: $0) ?? -1 }
            known.append((record, positions))
            return positions
        }
    }
}
