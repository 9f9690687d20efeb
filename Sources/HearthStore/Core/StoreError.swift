import CSQLite

/// An error from SQLite or from the store's own checks (GRDB's `DatabaseError`).
///
/// It carries the SQL text that failed but never the values bound to it:
/// those may be passwords, tokens or personal data, and errors end up in logs.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// The primary result code, to match on (`error.code == .constraint`).
    public let code: ResultCode
    /// The extended result code (`.constraintUnique`, `.constraintForeignKey`, …);
    /// equal to `code` when SQLite gave no detail.
    public let extendedCode: ResultCode
    /// SQLite's message, or the store's explanation.
    public let message: String
    /// The SQL statement that failed, when there was one.
    public let sql: String?

    /// Creates an error; `code` is derived from `extendedCode`.
    public init(extendedCode: ResultCode, message: String, sql: String? = nil) {
        self.code = extendedCode.primary
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// A readable one-line summary: code, message and SQL.
    public var description: String {
        var text = "SQLite error \(extendedCode.rawValue): \(message)"
        if let sql {
            text += " — while executing `\(sql)`"
        }
        return text
    }

    /// Reads the last error of a connection.
    static func lastError(of connection: OpaquePointer, sql: String?) -> StoreError {
        StoreError(
            extendedCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
            message: String(cString: sqlite3_errmsg(connection)),
            sql: sql
        )
    }
}
