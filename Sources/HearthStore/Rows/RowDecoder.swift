/// Decodes a ``Row`` into a `Decodable` type: coding keys are column names.
///
/// Only a keyed top level is supported (a struct whose properties are columns), plus
/// a single value when the row has exactly one column. Nested keyed or unkeyed
/// containers have no SQL counterpart and throw.
struct RowDecoder: Decoder {
    let row: Row
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowKeyedContainer<Key>(row: row))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw StoreError(extendedCode: .mismatch, message: "a row cannot be decoded as an unkeyed container (array)")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard row.count == 1 else {
            throw StoreError(
                extendedCode: .mismatch,
                message: "a row of \(row.count) columns cannot be decoded as a single value"
            )
        }
        return ColumnDecoder(value: row.values[0], column: row.columnNames[0], codingPath: [])
    }
}

/// Reads a value that is `DatabaseValueConvertible`, reporting the column on failure.
private func convert<T: DatabaseValueConvertible>(_ value: DatabaseValue, column: String, as type: T.Type) throws -> T {
    try value.converted(to: type, column: column)
}

/// Opens the existential so a `Decodable & DatabaseValueConvertible` type uses its column conversion.
private func convertIfPossible<T>(_ value: DatabaseValue, column: String, as type: T.Type) throws -> T? {
    guard let convertible = type as? any DatabaseValueConvertible.Type else { return nil }
    return try convert(value, column: column, as: convertible) as? T
}

/// Reads a fixed-width integer through `Int64`, refusing values that do not fit.
private func integer<T: FixedWidthInteger>(_ value: DatabaseValue, column: String, as type: T.Type) throws -> T {
    let wide = try convert(value, column: column, as: Int64.self)
    guard let narrow = T(exactly: wide) else {
        throw StoreError(extendedCode: .mismatch, message: "column '\(column)' holds \(wide), which does not fit in \(T.self)")
    }
    return narrow
}

private struct RowKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let row: Row
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        row.columnNames.compactMap(Key.init(stringValue:))
    }

    func contains(_ key: Key) -> Bool {
        row.hasColumn(key.stringValue)
    }

    private func value(for key: Key) throws -> DatabaseValue {
        guard let value = row.databaseValue(key.stringValue) else {
            throw StoreError(
                extendedCode: .range,
                message: "no column named '\(key.stringValue)' in row (columns: \(row.columnNames.joined(separator: ", ")))"
            )
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        row.databaseValue(key.stringValue)?.isNull ?? true
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try convert(value(for: key), column: key.stringValue, as: type)
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try convert(value(for: key), column: key.stringValue, as: type)
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try convert(value(for: key), column: key.stringValue, as: type)
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        Float(try convert(value(for: key), column: key.stringValue, as: Double.self))
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try integer(value(for: key), column: key.stringValue, as: type)
    }

    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try integer(value(for: key), column: key.stringValue, as: type)
    }

    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try integer(value(for: key), column: key.stringValue, as: type)
    }

    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try integer(value(for: key), column: key.stringValue, as: type)
    }

    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try integer(value(for: key), column: key.stringValue, as: type)
    }

    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try integer(value(for: key), column: key.stringValue, as: type)
    }

    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try integer(value(for: key), column: key.stringValue, as: type)
    }

    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try integer(value(for: key), column: key.stringValue, as: type)
    }

    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try integer(value(for: key), column: key.stringValue, as: type)
    }

    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try integer(value(for: key), column: key.stringValue, as: type)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoded(value(for: key), key, as: type)
    }

    private func decoded<T: Decodable>(_ value: DatabaseValue, _ key: Key, as type: T.Type) throws -> T {
        if let converted = try convertIfPossible(value, column: key.stringValue, as: type) {
            return converted
        }
        return try T(from: ColumnDecoder(value: value, column: key.stringValue, codingPath: [key]))
    }

    // Optional properties: one column lookup instead of the protocol's default `contains`,
    // `decodeNil` and `decode` (three), for the generic case and the common column types.

    /// The column's value, `nil` when the row lacks the column or it is `NULL`.
    private func presentValue(for key: Key) -> DatabaseValue? {
        guard let value = row.databaseValue(key.stringValue), !value.isNull else { return nil }
        return value
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try presentValue(for: key).map { try decoded($0, key, as: type) }
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try presentValue(for: key).map { try convert($0, column: key.stringValue, as: type) }
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try presentValue(for: key).map { try integer($0, column: key.stringValue, as: type) }
    }

    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try presentValue(for: key).map { try integer($0, column: key.stringValue, as: type) }
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try presentValue(for: key).map { try convert($0, column: key.stringValue, as: type) }
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try presentValue(for: key).map { try convert($0, column: key.stringValue, as: type) }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw StoreError(extendedCode: .mismatch, message: "column '\(key.stringValue)' cannot be decoded as a nested keyed container")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw StoreError(extendedCode: .mismatch, message: "column '\(key.stringValue)' cannot be decoded as a nested unkeyed container")
    }

    func superDecoder() throws -> any Decoder {
        RowDecoder(row: row)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        RowDecoder(row: row)
    }
}

/// Decodes one column value: the decoder handed to a property type that is not
/// `DatabaseValueConvertible` (a `RawRepresentable` enum, a wrapper struct).
private struct ColumnDecoder: Decoder, SingleValueDecodingContainer {
    let value: DatabaseValue
    let column: String
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw StoreError(extendedCode: .mismatch, message: "column '\(column)' cannot be decoded as a keyed container")
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw StoreError(extendedCode: .mismatch, message: "column '\(column)' cannot be decoded as an unkeyed container")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    func decodeNil() -> Bool {
        value.isNull
    }

    func decode(_ type: Bool.Type) throws -> Bool { try convert(value, column: column, as: type) }
    func decode(_ type: String.Type) throws -> String { try convert(value, column: column, as: type) }
    func decode(_ type: Double.Type) throws -> Double { try convert(value, column: column, as: type) }
    func decode(_ type: Float.Type) throws -> Float { Float(try convert(value, column: column, as: Double.self)) }
    func decode(_ type: Int.Type) throws -> Int { try integer(value, column: column, as: type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(value, column: column, as: type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(value, column: column, as: type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(value, column: column, as: type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(value, column: column, as: type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(value, column: column, as: type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(value, column: column, as: type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(value, column: column, as: type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(value, column: column, as: type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(value, column: column, as: type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let converted = try convertIfPossible(value, column: column, as: type) {
            return converted
        }
        return try T(from: self)
    }
}
