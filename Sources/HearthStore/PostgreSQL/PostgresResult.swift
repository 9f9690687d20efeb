import CPostgreSQL
import Glibc

/// A complete result of one PostgreSQL statement (a `PGresult`), read row by row into
/// ``Row``s whose values are decoded by column type like SQLite's storage classes.
///
/// Type OIDs decoded: `int2`, `int4`, `int8`, `oid` as `.integer`; `bool` as `.integer` 0 or 1;
/// `float4`, `float8` as `.real`; `numeric` as `.integer` when it has no fraction (`sum` of
/// integers) and `.real` otherwise; `bytea` as `.blob`; every other type as `.text`.
final class PostgresResult {
    private let result: OpaquePointer
    let rowCount: Int
    let columns: ColumnIndex
    private let types: [UInt32]

    /// Takes ownership of `result`; `statement` lends the column index it cached from an
    /// earlier result of the same statement.
    init(_ result: OpaquePointer, statement: PostgresStatement?) {
        self.result = result
        self.rowCount = Int(PQntuples(result))
        let columnCount = Int(PQnfields(result))
        if let cached = statement?.columns, cached.names.count == columnCount {
            self.columns = cached
        } else {
            let columns = ColumnIndex(names: (0..<Int32(columnCount)).map { String(cString: PQfname(result, $0)) })
            statement?.columns = columns
            self.columns = columns
        }
        self.types = (0..<Int32(columnCount)).map { PQftype(result, $0) }
    }

    deinit {
        PQclear(result)
    }

    /// The row at `index`.
    func row(_ index: Int) -> Row {
        Row(columns: columns, values: types.indices.map { value(row: Int32(index), column: $0) })
    }

    /// The value at (`row`, `column`).
    func value(row: Int32, column: Int) -> DatabaseValue {
        let field = Int32(column)
        if PQgetisnull(result, row, field) != 0 { return .null }
        let length = Int(PQgetlength(result, row, field))
        guard let pointer = PQgetvalue(result, row, field) else { return .null }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length).bindMemory(to: UInt8.self)
        let text = String(decoding: bytes, as: UTF8.self)
        switch types[column] {
        case Self.int2, Self.int4, Self.int8, Self.oid:
            return Int64(text).map(DatabaseValue.integer) ?? .text(text)
        case Self.bool:
            return .integer(text == "t" ? 1 : 0)
        case Self.float4, Self.float8:
            return Double(text).map(DatabaseValue.real) ?? .text(text)
        case Self.numeric:
            return Self.numeric(text)
        case Self.bytea:
            return Self.bytea(pointer)
        default:
            return .text(text)
        }
    }

    private static func numeric(_ text: String) -> DatabaseValue {
        if let integer = Int64(text) { return .integer(integer) }
        if let dot = text.firstIndex(of: "."), text[text.index(after: dot)...].allSatisfy({ $0 == "0" }),
           let integer = Int64(text[..<dot]) {
            return .integer(integer)
        }
        return Double(text).map(DatabaseValue.real) ?? .text(text)
    }

    /// A `bytea` in text format (`\x` and hex digits) as its bytes.
    private static func bytea(_ pointer: UnsafeMutablePointer<CChar>) -> DatabaseValue {
        var length = 0
        guard let bytes = pointer.withMemoryRebound(to: UInt8.self, capacity: 1, { PQunescapeBytea($0, &length) }) else {
            return .blob([])
        }
        defer { PQfreemem(bytes) }
        return .blob(Array(UnsafeBufferPointer(start: bytes, count: length)))
    }

    private static let bool: UInt32 = 16
    private static let bytea: UInt32 = 17
    private static let int8: UInt32 = 20
    private static let int2: UInt32 = 21
    private static let int4: UInt32 = 23
    private static let oid: UInt32 = 26
    private static let float4: UInt32 = 700
    private static let float8: UInt32 = 701
    private static let numeric: UInt32 = 1700
}
