import Dispatch
import Foundation
import Glibc
import GraphQL
import HearthStore
import Synchronization
import TestPython
import Testing

/// `hearth backup` and `hearth restore` against the real binary: a backup taken while a client
/// writes holds every write acknowledged before it began and passes SQLite's integrity check
/// (checked by Python's sqlite3, not by hearth); a restore brings the data back and the server
/// starts on it; restore refuses a running server's database, a corrupt file and a newer schema,
/// and leaves no stale -wal or -shm behind. On PostgreSQL both refuse, pointing to PostgreSQL's
/// own tools, and change nothing.
@Suite struct BackupRestoreTests {

    static let arguments = ServerProcess.householdArguments + ["--max-households-per-user", "10000"]

    /// What Python's sqlite3 finds in the backup at `path`: the integrity check's first line,
    /// then one line per household id.
    static func oracle(_ path: String) throws -> (integrity: String, households: Set<String>) {
        let lines = try TestPython.runScript("""
            import sqlite3, sys
            db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
            print(db.execute("PRAGMA integrity_check").fetchone()[0])
            for (id,) in db.execute("SELECT id FROM households"):
                print(id)
            """, [path])
        return (lines.first ?? "", Set(lines.dropFirst()))
    }

    @Test(.enabled(if: TestDatabaseStore.isSQLite, "backs up and restores SQLite's database file"))
    func aBackupDuringAWriteLoadHoldsEveryAcknowledgedWriteAndPassesTheIntegrityCheck() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let person = try server.person("ana")
        let load = WriteLoad()
        let address = server.address
        let createHousehold = "mutation($input: CreateHouseholdInput!) { createHousehold(input: $input) { household { id } } }"
        let token = person.token
        Thread.detachNewThread {
            defer { load.finished.signal() }
            var index = 0
            while !load.stop.load(ordering: .relaxed) {
                index += 1
                do {
                    let created = try ServerProcess.graphQL(
                        at: address, createHousehold, variables: ["input": ["name": .string("Home \(index)")]], token: token)
                    guard let id = created.data?["createHousehold"]?["household"]?["id"]?.stringValue else {
                        throw ServerProcess.Failure(description: "\(created.json)")
                    }
                    load.acknowledged.withLock { $0.append(id) }
                    load.progress.signal()
                } catch {
                    load.failure.withLock { $0 = "\(error)" }
                    load.progress.signal()
                    return
                }
            }
        }
        // The load is running: 20 writes acknowledged, and more on their way during the backup.
        for _ in 0..<20 { load.progress.wait() }
        let before = load.acknowledged.withLock { Set($0) }
        let file = server.directory.appendingPathComponent("backup.sqlite").path
        let backup = try HearthCommand.run(["backup", file, "--database", server.databasePath])
        load.stop.store(true, ordering: .relaxed)
        load.finished.wait()
        #expect(load.failure.withLock { $0 } == nil)
        #expect(backup.status == 0, "\(backup.standardError)")
        #expect(backup.standardOutput.hasPrefix("backup \(file): "), "\(backup.standardOutput)")
        #expect(backup.standardOutput.contains("integrity ok, schema version "), "\(backup.standardOutput)")
        #expect(backup.standardOutput.contains("keep a copy of \(server.directory.path)/keys"), "\(backup.standardOutput)")
        let copy = try Self.oracle(file)
        #expect(copy.integrity == "ok")
        #expect(before.isSubset(of: copy.households), "missing: \(before.subtracting(copy.households))")
        #expect(try KeyDirectoryTests.mode(file) == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: server.directory.path).filter { $0.contains(".partial-") }
        #expect(leftovers.isEmpty)
        #expect(load.acknowledged.withLock { $0.count } > before.count, "the server kept writing during the backup")
    }

    @Test(.enabled(if: TestDatabaseStore.isSQLite, "backs up and restores SQLite's database file"))
    func anExistingFileIsReplacedOnlyWithForce() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let file = server.directory.appendingPathComponent("backup.sqlite").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: file))
        let refused = try HearthCommand.run(["backup", file, "--database", server.databasePath])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("\(file) exists; pass --force to replace it"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me")
        let forced = try HearthCommand.run(["backup", file, "--force", "--database", server.databasePath])
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(try Self.oracle(file).integrity == "ok")
        let missing = try HearthCommand.run(["backup", file + "2", "--database", server.directory.appendingPathComponent("none.sqlite").path])
        #expect(missing.status == 64 && missing.standardError.contains("no database at"))
    }

    @Test(.enabled(if: TestDatabaseStore.isSQLite, "backs up and restores SQLite's database file"))
    func aRestoreBringsTheDataBackAndTheServerStartsOnIt() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let person = try server.person("ana")
        let (kept, _) = try server.createHousehold("Kept", as: person)
        let file = server.directory.appendingPathComponent("backup.sqlite").path
        #expect(try HearthCommand.run(["backup", file, "--database", server.databasePath]).status == 0)
        let (lost, _) = try server.createHousehold("Made after the backup", as: person)

        // Refused while the server runs: the database is untouched.
        let refused = try HearthCommand.run(["restore", file, "--database", server.databasePath])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("a server is using the database"), "\(refused.standardError)")
        #expect(try server.databaseText("SELECT name FROM households WHERE id = '\(lost)'") == "Made after the backup")

        // Killed, so its -wal and -shm stay behind, stale for the restored file.
        #expect(server.stop(signal: SIGKILL) == SIGKILL)
        #expect(FileManager.default.fileExists(atPath: server.databasePath + "-wal"))
        let restored = try HearthCommand.run(["restore", file, "--database", server.databasePath])
        #expect(restored.status == 0, "\(restored.standardError)")
        #expect(restored.standardOutput.contains("restored \(file) to \(server.databasePath): "), "\(restored.standardOutput)")
        #expect(restored.standardOutput.contains("integrity ok"))
        let files = try FileManager.default.contentsOfDirectory(atPath: server.directory.path)
        #expect(!files.contains("hearth.sqlite-wal") && !files.contains("hearth.sqlite-shm"), "\(files)")
        let before = try #require(files.first { $0.hasPrefix("hearth.sqlite.before-restore-") && !$0.hasSuffix("-wal") })
        #expect(try KeyDirectoryTests.mode(server.databasePath) == 0o600)
        // The replaced database, with its log, still has the write the backup missed.
        let replaced = try Self.oracle(server.directory.appendingPathComponent(before).path)
        #expect(replaced.households.contains(lost))

        let restarted = try ServerProcess(directory: server.directory, arguments: Self.arguments)
        defer { restarted.stop(signal: SIGKILL) }
        let signedIn = try AccountsTests.tokens(try AccountsTests.signIn(restarted).data?["login"])
        let households = try restarted.graphQL("{ households { id } }", token: signedIn.access)
        #expect(households.data?["households"] == .array([.object(["id": .string(kept)])]), "\(households.json)")
    }

    @Test(.enabled(if: TestDatabaseStore.isSQLite, "backs up and restores SQLite's database file"))
    func aCorruptFileAndANewerSchemaAreRefusedAndChangeNothing() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let file = server.directory.appendingPathComponent("backup.sqlite").path
        #expect(try HearthCommand.run(["backup", file, "--database", server.databasePath]).status == 0)
        #expect(server.stop() == 0)
        let original = try Data(contentsOf: URL(fileURLWithPath: server.databasePath))

        // A newer hearth's backup: it records a migration this binary does not know.
        let newer = server.directory.appendingPathComponent("newer.sqlite").path
        try FileManager.default.copyItem(atPath: file, toPath: newer)
        _ = try TestPython.runScript("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (9999, 'future', 'x', '2030-01-01T00:00:00Z')")
            db.commit()
            """, [newer])
        let refusedNewer = try HearthCommand.run(["restore", newer, "--database", server.databasePath])
        #expect(refusedNewer.status == 1)
        #expect(refusedNewer.standardError.contains("comes from a newer hearth than this one (it records migration 9999"), "\(refusedNewer.standardError)")

        // A corrupt backup: a page in the middle overwritten.
        let corrupt = server.directory.appendingPathComponent("corrupt.sqlite").path
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let middle = (bytes.count / pageSize / 2) * pageSize
        bytes.replaceSubrange(middle..<(middle + pageSize), with: Data(repeating: 0x5A, count: pageSize))
        try bytes.write(to: URL(fileURLWithPath: corrupt))
        let refusedCorrupt = try HearthCommand.run(["restore", corrupt, "--database", server.databasePath])
        #expect(refusedCorrupt.status == 1)
        #expect(refusedCorrupt.standardError.contains(corrupt), "\(refusedCorrupt.standardError)")
        #expect(refusedCorrupt.standardError.contains("integrity check") || refusedCorrupt.standardError.contains("not a database"))

        let garbage = server.directory.appendingPathComponent("garbage.sqlite").path
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: garbage))
        let refusedGarbage = try HearthCommand.run(["restore", garbage, "--database", server.databasePath])
        #expect(refusedGarbage.status == 1)
        #expect(refusedGarbage.standardError.contains("is not a database this hearth can read"), "\(refusedGarbage.standardError)")

        #expect(try Data(contentsOf: URL(fileURLWithPath: server.databasePath)) == original, "the database is unchanged")
        let files = try FileManager.default.contentsOfDirectory(atPath: server.directory.path)
        #expect(!files.contains { $0.contains(".restoring-") || $0.contains(".before-restore-") }, "\(files)")
    }

    @Test(.enabled(if: TestDatabaseStore.isSQLite, "backs up and restores SQLite's database file"))
    func aServerDoesNotStartWhileARestoreHoldsTheDatabase() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let lockPath = directory.appendingPathComponent("hearth.sqlite.lock").path
        // What restore holds while it swaps the files: the lock, exclusively.
        let descriptor = open(lockPath, O_RDWR | O_CREAT, 0o600)
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        defer { close(descriptor) }
        let failed = #expect(throws: ServerProcess.Failure.self) { try ServerProcess(directory: directory, arguments: Self.arguments) }
        #expect(failed?.description.contains("a restore is replacing the database") == true, "\(failed?.description ?? "")")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("hearth.sqlite").path), "nothing was opened")
    }
}

extension BackupRestoreTests {
    @Test(.enabled(if: !TestDatabaseStore.isSQLite, "PostgreSQL's answer"))
    func onPostgreSQLBackupAndRestoreRefuseAndPointToPostgreSQLsTools() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, _) = try server.createHousehold("Home", as: ana)
        let file = server.directory.appendingPathComponent("backup.sqlite").path

        let backup = try HearthCommand.run(["backup", file, "--database", server.database])
        #expect(backup.status == 64, "\(backup.standardError)")
        #expect(backup.standardError.contains("'hearth backup' works on an SQLite database file") && backup.standardError.contains("pg_dump"),
                "\(backup.standardError)")
        #expect(!FileManager.default.fileExists(atPath: file), "no file written")

        #expect(FileManager.default.createFile(atPath: file, contents: Data("not a database".utf8)))
        let restore = try HearthCommand.run(["restore", file, "--database", server.database])
        #expect(restore.status == 64, "\(restore.standardError)")
        #expect(restore.standardError.contains("'hearth restore' works on an SQLite database file") && restore.standardError.contains("pg_restore"),
                "\(restore.standardError)")
        #expect(try server.databaseText("SELECT name FROM households WHERE id = '\(householdID)'") == "Home", "the database is unchanged")
    }
}

/// The client writing in a loop while a backup runs: what it has written and been told is
/// committed, in order, and how it is stopped.
private final class WriteLoad: Sendable {
    /// The ids of the households whose creation was acknowledged.
    let acknowledged = Mutex<[String]>([])
    /// Set to end the loop.
    let stop = Atomic<Bool>(false)
    /// Signalled after each acknowledged write (and once on failure).
    let progress = DispatchSemaphore(value: 0)
    /// Signalled when the loop has ended.
    let finished = DispatchSemaphore(value: 0)
    /// Why the loop stopped early, if it did.
    let failure = Mutex<String?>(nil)
}
