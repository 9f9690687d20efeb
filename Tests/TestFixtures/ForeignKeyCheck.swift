import HearthStore

extension Database {
    /// The rows that reference a missing parent. SQLite checks its foreign keys only when asked
    /// (`PRAGMA foreign_key_check`); PostgreSQL refuses such a row at its statement, so none can
    /// exist there and the count is zero.
    public func foreignKeyViolationCount() throws -> Int {
        switch dialect {
        case .sqlite: try query("PRAGMA foreign_key_check").count
        case .postgresql: 0
        }
    }
}
