import Foundation

extension ServerProcess {
    /// The database's files as they are on disk: the database itself, its write-ahead log,
    /// its shared-memory index and a rollback journal, those that exist.
    var databaseFiles: [String] {
        ["", "-wal", "-shm", "-journal"].map { databasePath + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// The database files (``databaseFiles``) whose bytes contain `needle` anywhere: what a copy
    /// of the data directory would give away, deleted rows and old log frames included.
    func databaseFilesContaining(_ needle: [UInt8]) throws -> [String] {
        try databaseFiles.filter { path in
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))).firstRange(of: needle) != nil
        }
    }
}
