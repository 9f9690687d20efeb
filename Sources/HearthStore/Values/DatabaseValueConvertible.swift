import FoundationEssentials

/// A Swift type that can be bound to a statement parameter and read back from a column.
///
/// Conforming types: `Int`, `Int64`, `Int32`, `Double`, `String`, `[UInt8]` and `Data`
/// (blobs), `Bool` (INTEGER 0/1), `Date` (see ``Foundation/Date``), `DatabaseValue`
/// itself, and `Optional` of any of them (`nil` is `NULL`).
public protocol DatabaseValueConvertible: Sendable {
    /// The value to store.
    var databaseValue: DatabaseValue { get }

    /// Converts a stored value, or returns `nil` when the value cannot represent `Self`
    /// (wrong storage class, out of range, `NULL` for a non-optional type).
    static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
}

extension DatabaseValue: DatabaseValueConvertible {
    /// The value itself.
    public var databaseValue: DatabaseValue { self }

    /// Any value, including `NULL`, converts to itself.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> DatabaseValue? { value }
}

extension Int64: DatabaseValueConvertible {
    /// An `INTEGER`.
    public var databaseValue: DatabaseValue { .integer(self) }

    /// Reads an `INTEGER`, or a `REAL` holding an exact integer (SQLite's numeric affinity may store either).
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int64? {
        switch value {
        case .integer(let integer): integer
        case .real(let real): Int64(exactly: real)
        default: nil
        }
    }
}

extension Int: DatabaseValueConvertible {
    /// An `INTEGER`.
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }

    /// Reads an `INTEGER` (or an exact integral `REAL`) that fits in `Int`.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int? {
        Int64.fromDatabaseValue(value).flatMap { Int(exactly: $0) }
    }
}

extension Int32: DatabaseValueConvertible {
    /// An `INTEGER`.
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }

    /// Reads an `INTEGER` (or an exact integral `REAL`) that fits in `Int32`.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int32? {
        Int64.fromDatabaseValue(value).flatMap { Int32(exactly: $0) }
    }
}

extension Double: DatabaseValueConvertible {
    /// A `REAL`.
    public var databaseValue: DatabaseValue { .real(self) }

    /// Reads a `REAL` or an `INTEGER`.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
        switch value {
        case .real(let real): real
        case .integer(let integer): Double(integer)
        default: nil
        }
    }
}

extension Bool: DatabaseValueConvertible {
    /// An `INTEGER`, 1 or 0 (SQLite has no boolean type).
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }

    /// Reads an `INTEGER`: zero is `false`, anything else `true`.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? {
        Int64.fromDatabaseValue(value).map { $0 != 0 }
    }
}

extension String: DatabaseValueConvertible {
    /// A `TEXT`.
    public var databaseValue: DatabaseValue { .text(self) }

    /// Reads a `TEXT` only: numbers are not silently turned into strings.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }
}

extension Array: DatabaseValueConvertible where Element == UInt8 {
    /// A `BLOB`.
    public var databaseValue: DatabaseValue { .blob(self) }

    /// Reads a `BLOB`, or the UTF-8 bytes of a `TEXT`.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> [UInt8]? {
        switch value {
        case .blob(let bytes): bytes
        case .text(let text): Array(text.utf8)
        default: nil
        }
    }
}

extension Data: DatabaseValueConvertible {
    /// A `BLOB`.
    public var databaseValue: DatabaseValue { .blob([UInt8](self)) }

    /// Reads a `BLOB`, or the UTF-8 bytes of a `TEXT`.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Data? {
        [UInt8].fromDatabaseValue(value).map { Data($0) }
    }
}

/// Inlinable, so that a record's optional columns are read by code specialized for the wrapped
/// type in the record's module: the generic conformance looked up `Optional<Wrapped>`'s
/// metadata at run time for every value read, which cost more than reading the value.
extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    /// `NULL` for `nil`, the wrapped value's representation otherwise.
    @inlinable
    public var databaseValue: DatabaseValue {
        self?.databaseValue ?? .null
    }

    /// `.some(nil)` for `NULL`; `nil` (a failure) when a non-`NULL` value does not convert.
    @inlinable
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Wrapped?? {
        if value.isNull { return .some(nil) }
        return Wrapped.fromDatabaseValue(value).map { .some($0) }
    }
}
