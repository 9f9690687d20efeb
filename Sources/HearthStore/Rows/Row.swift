/// One result row: column names and values, copied out of SQLite so the row is a
/// plain `Sendable` value that outlives the statement and the connection's thread.
///
/// Read columns by name (case-insensitive, like SQL) or position, typed by the
/// expected result: `let id: String = try row["id"]`, `try row["count"] as Int`,
/// `try row["deleted_at"] as Date?`. A missing column throws a ``StoreError`` with
/// code `.range`; a value that does not convert (`NULL` into a non-optional, text into
/// `Int`) throws one with code `.mismatch`. ``decode(_:)`` maps a whole row onto a
/// `Decodable` type.
public struct Row: Sendable, Hashable, CustomStringConvertible {
    /// The column names, shared by every row of one result set.
    let columns: ColumnIndex
    /// The values, one per column.
    public let values: [DatabaseValue]

    init(columns: ColumnIndex, values: [DatabaseValue]) {
        self.columns = columns
        self.values = values
    }

    /// The column names, in result order.
    public var columnNames: [String] { columns.names }

    /// The number of columns.
    public var count: Int { values.count }

    /// The raw value of a column, or `nil` when the row has no such column.
    public func databaseValue(_ column: String) -> DatabaseValue? {
        columns.index(of: column).map { values[$0] }
    }

    /// Whether the row has a column of that name.
    public func hasColumn(_ column: String) -> Bool {
        columns.index(of: column) != nil
    }

    /// The value of the named column converted to `T`.
    ///
    /// - Throws: ``StoreError`` `.range` if there is no such column, `.mismatch` if
    ///   the value does not convert.
    ///
    /// Inlinable, so that the conversion is specialized for `T` where the row is read.
    @inlinable
    public subscript<T: DatabaseValueConvertible>(_ column: String) -> T {
        get throws {
            let index = try position(of: column)
            guard let value = T.fromDatabaseValue(values[index]) else { throw values[index].mismatch(column: column, as: T.self) }
            return value
        }
    }

    /// The position of the named column.
    /// - Throws: ``StoreError`` `.range` if there is no such column.
    @usableFromInline
    func position(of column: String) throws -> Int {
        guard let index = columns.index(of: column) else {
            throw StoreError(extendedCode: .range, message: "no column named '\(column)' in row (columns: \(columnNames.joined(separator: ", ")))")
        }
        return index
    }

    /// The value of the column at `index` (0-based) converted to `T`.
    ///
    /// - Throws: ``StoreError`` `.range` if the index is out of bounds, `.mismatch` if
    ///   the value does not convert.
    /// Inlinable, so that the conversion is specialized for `T` where the row is read.
    @inlinable
    public subscript<T: DatabaseValueConvertible>(_ index: Int) -> T {
        get throws {
            guard values.indices.contains(index) else { throw outOfRange(index) }
            guard let value = T.fromDatabaseValue(values[index]) else {
                throw values[index].mismatch(column: columnNames[index], as: T.self)
            }
            return value
        }
    }

    @usableFromInline
    func outOfRange(_ index: Int) -> StoreError {
        StoreError(extendedCode: .range, message: "column index \(index) out of range (row has \(count) columns)")
    }

    /// Decodes the row into a `Decodable` type whose coding keys are column names.
    ///
    /// Properties of a ``DatabaseValueConvertible`` type (`Date`, `Data`, …) use that
    /// conversion; other single-value types (`RawRepresentable` enums, wrappers) decode
    /// from the column's value. Optional properties accept `NULL` and missing columns.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try T(from: RowDecoder(row: self))
    }

    /// Reads the row as the record `T` (see ``FetchableRecord``), without `Codable`.
    public func decode<T: FetchableRecord>(_ type: T.Type = T.self) throws -> T {
        try decode(T.self, at: 0)
    }

    /// Reads the record `T` from the row's columns from position `offset` on: a join selects
    /// one record's columns after another's, whose names may repeat (`id`, `updated_at`).
    ///
    /// ```swift
    /// try db.forEachRow("SELECT \(Member.columns.qualified(by: "m")), \(Household.columns.qualified(by: "h")) FROM …") { row in
    ///     let member = try row.decode(Member.self, at: 0)
    ///     let household = try row.decode(Household.self, at: Member.columns.count)
    /// }
    /// ```
    public func decode<T: FetchableRecord>(_ type: T.Type, at offset: Int) throws -> T {
        try T(row: RecordRow(row: self, columns: T.columns, layout: columns.layout(of: T.columns, from: offset)))
    }

    /// Column names and values, `name: value`, for debugging (blobs show their size only).
    public var description: String {
        "[" + zip(columnNames, values).map { "\($0): \($1)" }.joined(separator: ", ") + "]"
    }

    /// Rows are equal when they have the same column names and values.
    public static func == (lhs: Row, rhs: Row) -> Bool {
        lhs.columnNames == rhs.columnNames && lhs.values == rhs.values
    }

    /// Hashes column names and values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(columnNames)
        hasher.combine(values)
    }
}
