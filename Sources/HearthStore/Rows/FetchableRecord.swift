/// A type read from result rows by column position, the fast path for the records every
/// request reads (accounts, households, members).
///
/// A `Decodable` row type goes through `Codable`'s keyed containers: per property a
/// name lookup, existential boxes and dynamic casts, which cost several times the read of
/// the row itself. A fetchable record names its columns once, in ``columns``, and reads them
/// by position in ``init(row:)``; where each column is in a result set is looked up by name
/// once per prepared statement, so a `SELECT` listing other columns, or the same in another
/// order, still reads the right values.
///
/// ```swift
/// struct Note: FetchableRecord {
///     static let columns = RecordColumns("id", "body", "created_at")
///     var id: String, body: String, createdAt: Date
///
///     init(row: RecordRow) throws {
///         id = try row[0]
///         body = try row[1]
///         createdAt = try row[2]
///     }
/// }
/// let notes = try db.decode(Note.self, "SELECT \(Note.columns) FROM notes")
/// ```
public protocol FetchableRecord {
    /// The columns the record is read from, in the order ``init(row:)`` reads them by position.
    static var columns: RecordColumns { get }

    /// Reads the record from `row`, whose position `i` is the column `columns.names[i]`.
    /// - Throws: ``StoreError`` (`.mismatch`, `.range`) from the row's getters.
    init(row: RecordRow) throws
}

/// The column names a ``FetchableRecord`` is read from, in order; written into SQL as the
/// comma-separated list (`"SELECT \(Member.columns) FROM members"`).
///
/// A class, so that a result set can remember per layout (by identity) where its columns
/// are: declare each as a `static let`.
public final class RecordColumns: Sendable, CustomStringConvertible {
    /// The names, in the order the record reads them.
    public let names: [String]
    /// The names as a select list: `id, name, created_at`.
    public let description: String

    /// How many columns the record reads: where the next record's columns start in a join.
    public var count: Int { names.count }

    /// Columns named `names`, in order.
    public init(_ names: String...) {
        self.names = names
        description = names.joined(separator: ", ")
    }

    /// The names qualified by a table or alias, as a select list for joins: `m.id, m.name`.
    public func qualified(by table: String) -> String {
        names.map { "\(table).\($0)" }.joined(separator: ", ")
    }
}
