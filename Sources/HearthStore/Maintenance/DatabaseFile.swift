import FoundationEssentials

/// A database file looked at on its own, outside any pool: a backup before it is restored, a
/// copy just written (`hearth backup`, `hearth restore`).
public enum DatabaseFile {
    /// Runs `body` with a `query_only` connection to the existing file `path`, closed after.
    /// Opening a file in WAL mode may create its `-shm` index (SQLite removes it, with the
    /// log, when the last connection closes).
    /// - Throws: ``StoreError`` `.cantOpen` when there is no file at `path`, or what SQLite
    ///   reports opening it (a file that is not a database is only found out by the first read).
    public static func inspect<T>(_ path: String, _ body: (Database) throws -> T) throws -> T {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError(extendedCode: .cantOpen, message: "no file at \(path)")
        }
        let database = try Database(path: path, role: .reader, configuration: DatabasePool.Configuration())
        defer { database.close() }
        return try body(database)
    }
}

extension Database {
    /// The lines of `PRAGMA integrity_check`: `["ok"]` for a sound database.
    /// - Throws: ``StoreError`` for a file that is not a database, `.corrupt` when
    ///   SQLite cannot even walk it.
    public func integrityCheck() throws -> [String] {
        try query("PRAGMA integrity_check").map { try $0[0] as String }
    }
}
