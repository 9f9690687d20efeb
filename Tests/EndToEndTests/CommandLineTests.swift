import Foundation
import Testing

/// The `hearth` command line: help, configuration precedence, migrate and schema.
@Suite struct CommandLineTests {
    @Test func helpListsEveryCommand() throws {
        let outcome = try HearthCommand.run(["--help"])
        #expect(outcome.status == 0)
        for command in ["serve", "migrate", "schema", "version"] {
            #expect(outcome.standardOutput.contains("\n  \(command) "))
        }
    }

    @Test func serveHelpDocumentsEveryFlagAndItsEnvironmentVariable() throws {
        let outcome = try HearthCommand.run(["serve", "--help"])
        #expect(outcome.status == 0)
        let flags = ["--host", "--port", "--database", "--log-level", "--loops", "--max-connections", "--max-request-line",
                     "--max-header-bytes", "--max-body-bytes", "--header-timeout", "--body-timeout", "--idle-timeout",
                     "--gzip-min-bytes", "--shutdown-grace", "--db-readers", "--db-synchronous", "--db-busy-timeout"]
        for flag in flags { #expect(outcome.standardOutput.contains("\n  \(flag) "), "\(flag) is not documented") }
        for variable in ["HEARTH_HOST", "HEARTH_PORT", "HEARTH_DATABASE", "HEARTH_LOG_LEVEL"] {
            #expect(outcome.standardOutput.contains("Environment: \(variable)."))
        }
    }

    @Test func environmentConfiguresTheServerAndFlagsWin() throws {
        let server = try ServerProcess(environment: ["HEARTH_MAX_REQUEST_LINE": "128"])
        defer { server.remove() }
        #expect(try server.get("/" + String(repeating: "x", count: 200)).status == 414)
        let flagWins = try ServerProcess(["--max-request-line", "1KiB"], environment: ["HEARTH_MAX_REQUEST_LINE": "128"])
        defer { flagWins.remove() }
        #expect(try flagWins.get("/" + String(repeating: "x", count: 200)).status == 404)
    }

    @Test func rejectsAnInvalidEnvironmentValueNamingTheVariable() throws {
        let outcome = try HearthCommand.run(["serve"], environment: ["HEARTH_PORT": "eighty"])
        #expect(outcome.status == 64)
        #expect(outcome.standardError.contains("invalid value 'eighty' for HEARTH_PORT"))
    }

    @Test func migrateAppliesThenReportsUpToDateAndListsStatus() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("nested/hearth.sqlite").path
        let first = try HearthCommand.run(["migrate", "--database", database])
        #expect(first.status == 0)
        #expect(first.standardOutput.contains("applied  0001_server_metadata.sql"))
        let second = try HearthCommand.run(["migrate", "--database", database])
        #expect(second.standardOutput.contains("is up to date"))
        let status = try HearthCommand.run(["migrate", "--status", "--database", database])
        #expect(status.status == 0)
        #expect(status.standardOutput.hasPrefix("applied  0001_server_metadata.sql"))
    }

    @Test func schemaPrintsTheEmbeddedSchema() throws {
        let outcome = try HearthCommand.run(["schema"])
        #expect(outcome.status == 0)
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../schema.graphql")
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            == expected.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
