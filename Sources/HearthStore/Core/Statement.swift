import CSQLite

/// A prepared statement of one connection. Never leaves the connection's thread.
final class Statement: CachedStatement {
    let handle: OpaquePointer
    let sql: String
    private let connection: OpaquePointer
    /// Set while a caller is stepping the statement, so a nested use of the same SQL
    /// (a query inside a `forEach` over itself) gets its own statement instead of
    /// resetting this one under the caller's feet.
    var isInUse = false

    init(handle: OpaquePointer, sql: String, connection: OpaquePointer) {
        self.handle = handle
        self.sql = sql
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The column names of the result set with their lookup, built once and kept until SQLite
    /// re-prepares the statement: it does so transparently after a schema change, and
    /// `SELECT *` may then have other columns, so the cached index is checked against the
    /// statement's re-prepare counter. Read it after the first step, when any re-prepare
    /// has happened.
    var columns: ColumnIndex {
        let preparations = sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
        if let cachedColumns, cachedColumnsPreparation == preparations { return cachedColumns }
        let columns = ColumnIndex(names: (0..<sqlite3_column_count(handle)).map { index in
            String(cString: sqlite3_column_name(handle, index))
        })
        cachedColumns = columns
        cachedColumnsPreparation = preparations
        return columns
    }

    private var cachedColumns: ColumnIndex?
    private var cachedColumnsPreparation: Int32 = 0

    /// Binds every parameter; the argument count must match the parameter count exactly,
    /// which catches a forgotten or extra value before it silently becomes `NULL`.
    func bind(_ arguments: StatementArguments) throws {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard arguments.values.count == expected else {
            throw StoreError(
                extendedCode: .range,
                message: "the statement has \(expected) parameter(s) but \(arguments.values.count) argument(s) were given",
                sql: sql
            )
        }
        for (offset, value) in arguments.values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32 = switch value {
            case .null:
                sqlite3_bind_null(handle, index)
            case .integer(let integer):
                sqlite3_bind_int64(handle, index, integer)
            case .real(let real):
                sqlite3_bind_double(handle, index, real)
            case .text(let text):
                text.withCString { pointer in
                    hearth_sqlite3_bind_text_transient(handle, index, pointer, Int32(text.utf8.count))
                }
            case .blob(let bytes):
                // An empty buffer may have no base address, and a NULL pointer would bind NULL.
                bytes.isEmpty
                    ? sqlite3_bind_zeroblob(handle, index, 0)
                    : bytes.withUnsafeBytes { buffer in
                        hearth_sqlite3_bind_blob_transient(handle, index, buffer.baseAddress, Int32(buffer.count))
                    }
            }
            guard status == SQLITE_OK else {
                throw StoreError.lastError(of: connection, sql: sql)
            }
        }
    }

    /// Advances to the next row; `false` once the statement is done.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw StoreError.lastError(of: connection, sql: sql)
        }
    }

    /// The value of a column of the current row.
    func value(at index: Int32) -> DatabaseValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let pointer = sqlite3_column_text(handle, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let pointer = sqlite3_column_blob(handle, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        default:
            return .null
        }
    }

    /// The current row, with `columns` (this statement's ``columns``).
    func row(_ columns: ColumnIndex) -> Row {
        Row(columns: columns, values: (0..<Int32(columns.names.count)).map(value(at:)))
    }

    /// Returns the statement to its pristine state for the next user.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }
}
