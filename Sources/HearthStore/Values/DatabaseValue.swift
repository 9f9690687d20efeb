/// One SQLite value, in one of SQLite's five storage classes.
public enum DatabaseValue: Sendable, Hashable, CustomStringConvertible {
    /// `NULL`.
    case null
    /// `INTEGER`: a 64-bit signed integer.
    case integer(Int64)
    /// `REAL`: an IEEE 754 double.
    case real(Double)
    /// `TEXT`, as UTF-8.
    case text(String)
    /// `BLOB`: raw bytes.
    case blob([UInt8])

    /// Whether the value is `NULL`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The storage class name as SQLite spells it, for error messages.
    var storageClassName: String {
        switch self {
        case .null: "NULL"
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        }
    }

    /// A debugging rendering; blobs show their size only.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "'\(value)'"
        case .blob(let bytes): "<\(bytes.count) bytes>"
        }
    }
}

extension DatabaseValue {
    /// Converts to `T` or throws a `.mismatch` error naming the column (named only then).
    func converted<T: DatabaseValueConvertible>(to type: T.Type, column: @autoclosure () -> String) throws -> T {
        guard let converted = T.fromDatabaseValue(self) else { throw mismatch(column: column(), as: T.self) }
        return converted
    }

    /// The `.mismatch` error of reading this value of `column` as `type`.
    @usableFromInline
    func mismatch(column: String, as type: Any.Type) -> StoreError {
        StoreError(extendedCode: .mismatch, message: "column '\(column)' holds \(storageClassName), which cannot be read as \(type)")
    }
}
