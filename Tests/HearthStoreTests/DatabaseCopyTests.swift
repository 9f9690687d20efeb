import FoundationEssentials
import Glibc
import HearthStore
import Testing

/// The store functions behind `hearth backup`, `restore` and `admin status`: a snapshot into a
/// new file with the database files' mode, never over an existing file; a file inspected on its
/// own and checked; every table's row count.
@Suite struct DatabaseCopyTests {
    @Test func aSnapshotHoldsWhatWasCommittedAndIsReadableByItsOwnerOnly() throws {
        try TemporaryDatabase.withPool { pool in
            try pool.write { db in
                try db.execute("CREATE TABLE notes (body TEXT NOT NULL)")
                try db.execute("INSERT INTO notes (body) VALUES ('kept'), ('also kept')")
            }
            let copy = pool.path + ".copy"
            try pool.snapshot(into: copy)
            var status = stat()
            #expect(stat(copy, &status) == 0 && status.st_mode & 0o777 == 0o600)
            let (integrity, count) = try DatabaseFile.inspect(copy) { db in
                (try db.integrityCheck(), try db.scalar(Int.self, "SELECT count(*) FROM notes"))
            }
            #expect(integrity == ["ok"])
            #expect(count == 2)
            #expect(throws: StoreError.self) { try pool.snapshot(into: copy) }
            #expect(try DatabaseFile.inspect(copy) { try $0.scalar(Int.self, "SELECT count(*) FROM notes") } == 2, "an existing file is left alone")
        }
    }

    @Test func inspectingAMissingFileCreatesNothing() throws {
        try TemporaryDatabase.withPath { path in
            #expect(throws: StoreError.self) { try DatabaseFile.inspect(path) { _ in () } }
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func tableRowCountsNameEveryTable() throws {
        try TemporaryDatabase.withPool { pool in
            try pool.write { db in
                try db.execute("CREATE TABLE b (x)")
                try db.execute("CREATE TABLE \"a \"\"quoted\"\"\" (x)")
                try db.execute("INSERT INTO b (x) VALUES (1), (2), (3)")
            }
            let counts = try pool.tableRowCounts()
            #expect(counts.map(\.table) == ["a \"quoted\"", "b"])
            #expect(counts.map(\.rows) == [0, 3])
        }
    }
}
