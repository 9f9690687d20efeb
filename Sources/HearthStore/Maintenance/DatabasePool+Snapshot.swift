import FoundationEssentials
import Glibc

extension DatabasePool {
    /// Writes a consistent copy of the whole database to the new file `path` (`VACUUM INTO`),
    /// while other connections, of this process or another, go on writing.
    ///
    /// The copy is one snapshot: every transaction committed before it began is in it, none
    /// that commits during it. In WAL mode it reads like any reader, so writers are not held
    /// up; it runs on this pool's writer connection only because readers are `query_only`, and
    /// takes no write lock of the database. The copy is created with
    /// ``Configuration/newFileMode``, compacted (no free pages, so no deleted rows) and in
    /// rollback-journal mode; the next pool that opens it switches it to WAL.
    /// - Throws: ``StoreError`` `.cantOpen` when `path` exists already or cannot be created,
    ///   or what SQLite reports (a full disk).
    public func snapshot(into path: String) throws {
        // VACUUM INTO accepts an empty file: made here so it gets the mode of database files.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, configuration.newFileMode)
        guard descriptor >= 0 else {
            throw StoreError(extendedCode: .cantOpen, message: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        _ = fchmod(descriptor, configuration.newFileMode)
        Glibc.close(descriptor)
        try writeWithoutTransaction { database in try database.execute("VACUUM INTO ?", [path]) }
    }

    /// Every table of the database with its row count, by name (the schema's own tables
    /// included): what `hearth admin status` reports as the data's size.
    public func tableRowCounts() throws -> [(table: String, rows: Int)] {
        try read { database in
            let tables: [String] = try database.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
                .map { try $0[0] }
            return try tables.map { table in
                (table, try database.scalar(Int.self, "SELECT count(*) FROM \"\(table.replacing("\"", with: "\"\""))\"") ?? 0)
            }
        }
    }
}
