import FoundationEssentials
import Glibc
@testable import HearthApp
import HearthStore
import Testing

/// `--database` choosing SQLite or PostgreSQL, `HEARTH_DATABASE_URL`, the PostgreSQL pool's
/// limits at their edges, and `--database-password-file`.
@Suite struct DatabaseSettingsTests {
    private func database(_ arguments: [String], environment: [String: String] = [:]) throws -> DatabaseSettings {
        try DatabaseSettings(OptionParser(specs: DatabaseSettings.options).parse(arguments, environment: environment))
    }

    @Test func aPathIsSQLiteAndAURLIsPostgreSQL() throws {
        let sqlite = try database(["--database", "/var/lib/hearth/hearth.sqlite"])
        #expect(sqlite.postgres == nil && sqlite.path == "/var/lib/hearth/hearth.sqlite")
        let postgres = try database(["--database", "postgresql://hearth@db/hearth?sslmode=verify-full"])
        #expect(postgres.postgres?.url == "postgresql://hearth@db/hearth?sslmode=verify-full")
        #expect(postgres.postgres?.maxConnections == 10 && postgres.postgres?.acquireTimeout == .seconds(5))
    }

    @Test func theURLVariableAppliesOnlyWhenNoDatabaseIsGiven() throws {
        let environment = ["HEARTH_DATABASE_URL": "postgres://db/hearth"]
        #expect(try database([], environment: environment).postgres?.url == "postgres://db/hearth")
        #expect(try database(["--database", "x.sqlite"], environment: environment).postgres == nil)
        #expect(throws: UsageError.self) { try database([], environment: ["HEARTH_DATABASE_URL": "/tmp/x.sqlite"]) }
    }

    @Test func poolLimitsAreReadUpToTheirEdges() throws {
        let url = ["--database", "postgres://db/hearth"]
        #expect(try database(url + ["--database-max-connections", "1"]).postgres?.maxConnections == 1)
        #expect(try database(url + ["--database-max-connections", "1000"]).postgres?.maxConnections == 1000)
        #expect(try database(url + ["--database-acquire-timeout", "600s"]).postgres?.acquireTimeout == .seconds(600))
        #expect(try database(url).postgres?.maxWriteAttempts == 32)
        #expect(try database(url + ["--database-write-attempts", "1"]).postgres?.maxWriteAttempts == 1)
        #expect(try database(url + ["--database-write-attempts", "1000"]).postgres?.maxWriteAttempts == 1000)
        #expect(try database(url).postgres?.idleTimeout == .seconds(300))
        #expect(try database(url + ["--database-idle-timeout", "24h"]).postgres?.idleTimeout == .seconds(86_400))
        #expect(try database(url + ["--database-idle-timeout", "1ms"]).postgres?.idleTimeout == .milliseconds(1))
        #expect(try database(url + ["--database-idle-timeout", "0"]).postgres.map { $0.idleTimeout == nil } == true)
        for arguments in [
            ["--database-max-connections", "0"], ["--database-max-connections", "1001"], ["--database-acquire-timeout", "601s"],
            ["--database-write-attempts", "0"], ["--database-write-attempts", "1001"], ["--database-idle-timeout", "86401s"],
            ["--database-idle-timeout", "soon"],
        ] {
            #expect(throws: UsageError.self) { try database(url + arguments) }
        }
    }

    @Test func thePasswordFileIsReadWithoutItsNewlineAndNeverShown() throws {
        let file = FileManager.default.temporaryDirectory.path + "/hearth-password-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(file) }
        FileManager.default.createFile(atPath: file, contents: Data("s3cret\n".utf8), attributes: [.posixPermissions: 0o600])
        let settings = try database(["--database", "postgres://hearth:inline@db/hearth", "--database-password-file", file])
        #expect(settings.postgres?.password == "s3cret")
        #expect(settings.displayName == "postgres://hearth:***@db/hearth")
        chmod(file, 0o644)
        #expect(throws: UsageError.self) { try database(["--database", "postgres://db/hearth", "--database-password-file", file]) }
        #expect(throws: UsageError.self) { try database(["--database", "postgres://db/hearth", "--database-password-file", file + ".missing"]) }
    }

    @Test func sqliteOnlyCommandsNameThePostgreSQLTool() throws {
        let settings = try database(["--database", "postgres://hearth:pw@db/hearth"])
        let error = #expect(throws: UsageError.self) {
            try settings.withExisting(command: "hearth backup", postgresAdvice: PostgresAdvice.backup) { _ in }
        }
        #expect(error?.message.contains("pg_dump") == true)
        #expect(error?.message.contains("pw") == false)
    }
}
