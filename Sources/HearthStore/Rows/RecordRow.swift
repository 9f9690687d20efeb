/// A result row as a ``FetchableRecord`` reads it: by the position of a column in the
/// record's ``FetchableRecord/columns``, wherever the column is in the result set.
///
/// A column the result set lacks reads as `NULL` into an optional and throws `.range` for
/// anything else, as `Decodable` rows did.
public struct RecordRow {
    /// The row.
    public let row: Row
    @usableFromInline let columns: RecordColumns
    /// Where the record's columns are in `row`.
    @usableFromInline let layout: RecordLayout

    init(row: Row, columns: RecordColumns, layout: RecordLayout) {
        self.row = row
        self.columns = columns
        self.layout = layout
    }

    /// The value of the record's column `index`, converted to `T`.
    /// - Throws: ``StoreError`` `.mismatch` when the value does not convert, `.range` when the
    ///   result set lacks the column and `T` is not optional.
    ///
    /// Inlinable, like the other getters, so that each record's initializer is specialized for
    /// its property types in its own module.
    @inlinable
    public subscript<T: DatabaseValueConvertible>(_ index: Int) -> T {
        get throws {
            let position = layout.position(of: index)
            guard position >= 0 else {
                // Only an optional converts from NULL: a missing column is `nil` for it.
                if let absent = T.fromDatabaseValue(.null) { return absent }
                throw missingColumn(index)
            }
            guard let value = T.fromDatabaseValue(row.values[position]) else {
                throw row.values[position].mismatch(column: columns.names[index], as: T.self)
            }
            return value
        }
    }

    @usableFromInline
    func missingColumn(_ index: Int) -> StoreError {
        StoreError(
            extendedCode: .range,
            message: "no column named '\(columns.names[index])' in row (columns: \(row.columnNames.joined(separator: ", ")))")
    }

    @usableFromInline
    func unknownCase(_ index: Int, raw: Any, of type: Any.Type) -> StoreError {
        StoreError(extendedCode: .mismatch, message: "column '\(columns.names[index])' holds \(raw), which is not a \(type)")
    }

    /// The value of the record's column `index` as a raw-representable type (a stored enum).
    /// - Throws: ``StoreError`` `.mismatch` when the stored raw value names no case.
    @inlinable
    public subscript<T: RawRepresentable>(_ index: Int) -> T where T.RawValue: DatabaseValueConvertible {
        get throws {
            let raw: T.RawValue = try self[index]
            guard let value = T(rawValue: raw) else { throw unknownCase(index, raw: raw, of: T.self) }
            return value
        }
    }

    /// The value of the record's column `index` as an optional raw-representable type; `nil`
    /// for `NULL` or a missing column.
    /// - Throws: ``StoreError`` `.mismatch` when the stored raw value names no case.
    @inlinable
    public subscript<T: RawRepresentable>(_ index: Int) -> T? where T.RawValue: DatabaseValueConvertible {
        get throws {
            guard let raw: T.RawValue = try self[index] else { return nil }
            guard let value = T(rawValue: raw) else { throw unknownCase(index, raw: raw, of: T.self) }
            return value
        }
    }
}
