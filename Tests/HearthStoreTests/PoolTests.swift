import CSQLite
import Dispatch
import Foundation
import Glibc
@testable import HearthStore
import Testing

@Suite struct PoolTests {
    @Test func connectionsAreConfiguredForWALDurabilityAndForeignKeys() throws {
        let configuration = DatabasePool.Configuration(readerCount: 2, busyTimeout: .milliseconds(1234), synchronous: .full)
        try TemporaryDatabase.withPool(configuration: configuration) { pool throws in
            let settings = { (db: Database) throws -> [Int?] in
                [
                    try db.scalar(Int.self, "PRAGMA synchronous"),
                    try db.scalar(Int.self, "PRAGMA foreign_keys"),
                    try db.scalar(Int.self, "PRAGMA busy_timeout"),
                ]
            }
            #expect(try pool.write { db in try db.scalar(String.self, "PRAGMA journal_mode") } == "wal")
            #expect(try pool.write(settings) == [2, 1, 1234])
            #expect(try pool.read(settings) == [2, 1, 1234])
        }
        try TemporaryDatabase.withPool(configuration: .init(synchronous: .normal)) { pool throws in
            #expect(try pool.write { db in try db.scalar(Int.self, "PRAGMA synchronous") } == 1)
        }
    }

    /// SQLite's memory statistics are off (their global mutex was contended by the event loops'
    /// readers): it counts no allocation of the connections' work.
    @Test func sqliteKeepsNoMemoryStatistics() throws {
        try TemporaryDatabase.withPool { pool throws in
            try pool.write { db in try db.execute("CREATE TABLE notes (body TEXT)") }
            #expect(try pool.read { db in try db.scalar(Int.self, "SELECT count(*) FROM notes") } == 0)
        }
        #expect(sqlite3_memory_used() == 0)
    }

    @Test func theParentDirectoryIsCreated() throws {
        try TemporaryDatabase.withPath { path in
            let nested = (path as NSString).deletingLastPathComponent + "/a/b/nested.sqlite"
            let pool = try DatabasePool(path: nested)
            defer { pool.close() }
            try pool.write { db in try db.execute("CREATE TABLE t (x)") }
            #expect(FileManager.default.fileExists(atPath: nested))
        }
    }

    @Test func theFilesAndDirectoryItCreatesArePrivateWhateverTheUmask() throws {
        try TemporaryDatabase.withPath { path in
            let directory = (path as NSString).deletingLastPathComponent + "/private"
            let database = directory + "/people.sqlite"
            let previous = umask(0o022)
            defer { umask(previous) }
            let pool = try DatabasePool(path: database)
            defer { pool.close() }
            try pool.write { db in try db.execute("CREATE TABLE t (x)") }
            #expect(Self.mode(of: directory) == 0o700)
            #expect(Self.mode(of: database) == 0o600)
            #expect(Self.mode(of: database + "-wal") == 0o600)
            #expect(Self.mode(of: database + "-shm") == 0o600)
        }
    }

    @Test func anExistingDatabaseKeepsItsPermissions() throws {
        try TemporaryDatabase.withPath { path in
            #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o640]))
            let pool = try DatabasePool(path: path)
            defer { pool.close() }
            #expect(Self.mode(of: path) == 0o640)
        }
    }

    @Test func directoriesAreSearchableByWhoeverMayReadTheFiles() {
        #expect(DatabasePool.directoryMode(for: 0o600) == 0o700)
        #expect(DatabasePool.directoryMode(for: 0o640) == 0o750)
        #expect(DatabasePool.directoryMode(for: 0o644) == 0o755)
        #expect(DatabasePool.directoryMode(for: 0o400) == 0o500)
    }

    private static func mode(of path: String) -> mode_t {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o777 : 0
    }

    @Test func callersWaitingForABusyReaderAreCounted() throws {
        try TemporaryDatabase.withPool(configuration: .init(readerCount: 1)) { pool in
            let held = HeldConnection(.reader, of: pool)
            let busy = pool.statistics.readers
            #expect(busy.inUse == 1)
            #expect(busy.waits == 0)
            let waiter = Background.run { try pool.read { db in try db.scalar(Int.self, "SELECT 7") } }
            waitUntil { pool.statistics.readers.waiting == 1 }
            held.release()
            try held.join()
            #expect(try waiter.join() == 7)
            let after = pool.statistics.readers
            #expect(after.waits == 1)
            #expect(after.waiting == 0)
            #expect(after.inUse == 0)
            #expect(after.acquisitions == 2)
            #expect(after.totalWaitTime > .zero)
            #expect(pool.statistics.writer.waits == 0)
        }
    }

    @Test func readIfIdleReadsOnTheCallingThreadOrReturnsNilWhenEveryReaderIsLent() throws {
        try TemporaryDatabase.withPool(configuration: .init(readerCount: 1)) { pool in
            #expect(try pool.readIfIdle { db in try db.scalar(Int.self, "SELECT 7") } == 7)
            let held = HeldConnection(.reader, of: pool)
            var ran = false
            let busy: Int? = try pool.readIfIdle { _ in
                ran = true
                return 1
            }
            #expect(busy == nil)
            #expect(!ran)
            #expect(pool.statistics.readers.waits == 0)
            held.release()
            try held.join()
            #expect(try pool.readIfIdle { db in try db.scalar(Int.self, "SELECT 8") } == 8)
        }
    }

    @Test func callersWaitingForTheWriterAreCounted() throws {
        try TemporaryDatabase.withPool { pool in
            let held = HeldConnection(.writer, of: pool)
            #expect(pool.statistics.writer.inUse == 1)
            let waiter = Background.run { try pool.write { db in try db.execute("CREATE TABLE t (x)") } }
            waitUntil { pool.statistics.writer.waiting == 1 }
            held.release()
            try held.join()
            try waiter.join()
            #expect(pool.statistics.writer.waits == 1)
            #expect(pool.statistics.writer.inUse == 0)
        }
    }

    @Test func closingRefusesFurtherAccess() throws {
        try TemporaryDatabase.withPath { path in
            let pool = try DatabasePool(path: path)
            pool.close()
            pool.close()
            let readError = #expect(throws: StoreError.self) { try pool.read { _ in } }
            #expect(readError?.code == .misuse)
            let writeError = #expect(throws: StoreError.self) { try pool.write { _ in } }
            #expect(writeError?.code == .misuse)
        }
    }

    @Test func checkpointEmptiesTheWriteAheadLog() throws {
        try TemporaryDatabase.withPool { pool in
            try pool.write { db in
                try db.execute("CREATE TABLE t (x)")
                try db.execute("INSERT INTO t (x) VALUES (randomblob(10000))")
            }
            let walSize = { (try? FileManager.default.attributesOfItem(atPath: pool.path + "-wal")[.size] as? Int) ?? 0 }
            #expect(walSize() > 0)
            try pool.checkpoint()
            #expect(walSize() == 0)
            #expect(try pool.read { db in try db.scalar(Int.self, "SELECT count(*) FROM t") } == 1)
        }
    }

    @Test func integrityCheckReportsOkForASoundDatabase() throws {
        try TemporaryDatabase.withPool { pool in
            try pool.write { db in try db.execute("CREATE TABLE t (x UNIQUE)") }
            #expect(try pool.integrityCheck() == ["ok"])
        }
    }

    @Test func acknowledgedWritesArePersistedWhenThePoolReopens() throws {
        try TemporaryDatabase.withPath { path in
            let pool = try DatabasePool(path: path)
            try pool.write { db in
                try db.execute("CREATE TABLE t (x)")
                try db.execute("INSERT INTO t (x) VALUES (?)", ["kept"])
            }
            pool.close()
            let reopened = try DatabasePool(path: path)
            defer { reopened.close() }
            #expect(try reopened.read { db in try db.scalar(String.self, "SELECT x FROM t") } == "kept")
        }
    }
}

@Suite struct ReentrancyTests {
    @Test func usingThePoolFromInsideItsOwnClosureTrapsInsteadOfDeadlocking() async {
        await #expect(processExitsWith: .failure) {
            try TemporaryDatabase.withPool(configuration: .init(readerCount: 1)) { pool in
                try pool.read { _ in
                    try pool.read { _ in }
                }
            }
        }
    }
}
