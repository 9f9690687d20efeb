import CSQLite

/// An error from the database or from the store's own checks (GRDB's `DatabaseError`).
///
/// It carries the SQL text that failed but never the values bound to it:
/// those may be passwords, tokens or personal data, and errors end up in logs.
/// Services that must react to a kind of failure match ``category``, which both stores
/// fill, never SQLite's result codes or PostgreSQL's SQLSTATEs.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// The kinds of failure a caller may handle, whichever database reported them.
    public enum Category: Sendable, Hashable {
        /// A unique or primary-key constraint refused a row.
        case uniqueViolation
        /// A foreign-key constraint refused a change.
        case foreignKeyViolation
        /// Concurrent transactions could not be ordered (PostgreSQL's serialization failure or
        /// deadlock): the whole transaction may be retried.
        case serializationFailure
        /// The database or a pool connection was not available in time (SQLite's busy timeout,
        /// a pool's acquire timeout).
        case busy
        /// Anything else.
        case other
    }

    /// The primary result code, to match on (`error.code == .constraint`); PostgreSQL's
    /// SQLSTATEs are mapped onto the nearest SQLite code.
    public let code: ResultCode
    /// The extended result code (`.constraintUnique`, `.constraintForeignKey`, …);
    /// equal to `code` when SQLite gave no detail.
    public let extendedCode: ResultCode
    /// The kind of failure, for callers that handle some (``Category``).
    public let category: Category
    /// PostgreSQL's five-character SQLSTATE, `nil` for SQLite and the store's own errors.
    public let sqlState: String?
    /// The database's message, or the store's explanation.
    public let message: String
    /// The SQL statement that failed, when there was one.
    public let sql: String?

    /// Creates an error; `code` is derived from `extendedCode`, and ``category`` from it unless given.
    public init(extendedCode: ResultCode, message: String, sql: String? = nil, category: Category? = nil, sqlState: String? = nil) {
        self.code = extendedCode.primary
        self.extendedCode = extendedCode
        self.category = category ?? Self.category(of: extendedCode)
        self.sqlState = sqlState
        self.message = message
        self.sql = sql
    }

    /// A readable one-line summary: code, message and SQL.
    public var description: String {
        var text = if let sqlState {
            "PostgreSQL error \(sqlState): \(message)"
        } else {
            "SQLite error \(extendedCode.rawValue): \(message)"
        }
        if let sql {
            text += " — while executing `\(sql)`"
        }
        return text
    }

    /// The category of an SQLite result code.
    private static func category(of code: ResultCode) -> Category {
        switch code {
        case .constraintUnique, .constraintPrimaryKey: .uniqueViolation
        case .constraintForeignKey: .foreignKeyViolation
        default: code.primary == .busy || code.primary == .locked ? .busy : .other
        }
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
