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

    /// The record layouts read from this result set and where their columns are (see
    /// ``layout(of:from:)``). A statement serves one or two record types, so a short list.
    private let layouts = Mutex<[(columns: RecordColumns, offset: Int, layout: RecordLayout)]>([])

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

    /// The position of the first column named `name` at or after `offset`, compared like
    /// ``index(of:)``.
    private func index(of name: String, from offset: Int) -> Int? {
        let candidates = names.indices.dropFirst(offset)
        if let index = candidates.first(where: { names[$0] == name }) { return index }
        let folded = name.lowercased()
        return candidates.first { names[$0].lowercased() == folded }
    }

    /// Where the columns of `record` are in this result set, looking from column `offset` on
    /// (a join selects one record's columns after another's): `.contiguous` when the columns
    /// from `offset` are the record's, in order (what `SELECT \(Record.columns), …` gives),
    /// otherwise each column found by name, `-1` for one the result lacks. Looked up once per
    /// prepared statement, record type and offset, then kept.
    func layout(of record: RecordColumns, from offset: Int = 0) -> RecordLayout {
        layouts.withLock { known in
            if let entry = known.first(where: { $0.columns === record && $0.offset == offset }) { return entry.layout }
            let layout: RecordLayout
            if offset <= names.count, names[offset...].starts(with: record.names) {
                layout = .contiguous(from: offset)
            } else {
                layout = .scattered(record.names.map { name in
                    offset == 0 ? index(of: name) ?? -1 : index(of: name, from: offset) ?? -1
                })
            }
            known.append((record, offset, layout))
            return layout
        }
    }
}

/// Where a ``FetchableRecord``'s columns are in a result row.
@usableFromInline
enum RecordLayout: Sendable {
    /// In the record's order, the first at this position.
    case contiguous(from: Int)
    /// At these positions, one per record column; `-1` for a column the result lacks.
    case scattered([Int])

    /// The position of the record's column `index`; `-1` when the result lacks it.
    @inlinable
    func position(of index: Int) -> Int {
        switch self {
        case .contiguous(let offset): offset + index
        case .scattered(let positions): positions[index]
        }
    }
}
