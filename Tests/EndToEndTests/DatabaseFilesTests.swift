import Foundation
import Glibc
import HearthStore
import Testing

/// The database holds people's addresses, names and password hashes: the server creates its
/// files readable by their owner only, and says so when an existing database is readable by
/// other users of the machine. (SQLite's files: PostgreSQL's are its server's.)
@Suite(.enabled(if: TestDatabaseStore.isSQLite, "the modes of SQLite's database files")) struct DatabaseFilesTests {
    @Test func aNewDatabaseIsReadableByItsOwnerOnly() throws {
        let server = try ServerProcess(AccountsTests.serverArguments)
        defer { server.remove() }
        try AccountsTests.register(server)
        for suffix in ["", "-wal", "-shm"] {
            #expect(try KeyDirectoryTests.mode(server.databasePath + suffix) == 0o600, "hearth.sqlite\(suffix)")
        }
        #expect(!server.log.contains("other users of this machine may read the database"))
    }

    @Test func aDatabaseOthersCanReadIsNamedInAWarningAtStart() throws {
        let first = try ServerProcess(AccountsTests.serverArguments)
        defer { first.remove() }
        #expect(first.stop() == 0)
        #expect(chmod(first.databasePath, 0o644) == 0)

        let server = try ServerProcess(directory: first.directory, arguments: AccountsTests.serverArguments)
        defer { server.stop(signal: SIGKILL) }
        let warning = try #require(server.log.split(separator: "\n").first { $0.contains("other users of this machine may read the database") })
        #expect(warning.contains("level=warning"))
        #expect(warning.contains("mode=644"))
        #expect(warning.contains(first.databasePath))
    }
}
