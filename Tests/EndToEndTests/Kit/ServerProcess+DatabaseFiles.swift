import Foundation
import HearthStore

extension ServerProcess {
    /// The database's files as they are on disk: the database itself, its write-ahead log,
    /// its shared-memory index and a rollback journal, those that exist.
    var databaseFiles: [String] {
        ["", "-wal", "-shm", "-journal"].map { databasePath + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// The database files (``databaseFiles``) whose bytes contain `needle` anywhere: what a copy
    /// of the data directory would give away, deleted rows and old log frames included.
    /// SQLite's files only: on PostgreSQL they are the cluster's, so this throws rather than
    /// find nothing and let a check pass vacuously (guard the check with `TestDatabaseStore.isSQLite`).
    func databaseFilesContaining(_ needle: [UInt8]) throws -> [String] {
        guard TestDatabaseStore.isSQLite else {
            throw Failure(description: "databaseFilesContaining reads SQLite's files; this run's database is PostgreSQL's")
        }
        return try databaseFiles.filter { path in
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))).firstRange(of: needle) != nil
        }
    }
}
