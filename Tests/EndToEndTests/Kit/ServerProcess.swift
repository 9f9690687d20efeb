import Foundation
import Glibc
import Synchronization
import HearthHTTP
import HearthStore
import TestFixtures
import TestProcess

/// The real `hearth` binary started for a test: `hearth serve --port 0` on a temporary
/// database, ready once it printed its `listening on` line. Its standard error (the
/// structured log) is kept in a file the test can read. The database is in this run's store
/// (``TestDatabaseStore``): a SQLite file in the test's directory, or a PostgreSQL database of
/// its own copied from the migrated template, dropped by ``remove()``.
final class ServerProcess {
    /// Errors starting or stopping the server.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The `hearth` executable: `HEARTH_BIN` (set by `make test`), else next to the test bundle.
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["HEARTH_BIN"] { return path }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return bundle.appendingPathComponent("hearth").path
    }

    let directory: URL
    /// The SQLite file in ``directory`` (used when this run's store is SQLite).
    let databasePath: String
    /// What `--database` names: ``databasePath``, or the URL of the test's PostgreSQL database.
    let database: String
    let logPath: String
    let process: ChildProcess
    let port: Int

    /// Starts a server on a new temporary database.
    ///
    /// - Parameter fileDescriptorLimit: when set, the server runs under this hard `RLIMIT_NOFILE`.
    convenience init(_ arguments: [String] = [], environment: [String: String] = [:], fileDescriptorLimit: Int? = nil) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try self.init(directory: directory, arguments: arguments, environment: environment, fileDescriptorLimit: fileDescriptorLimit)
    }

    /// Starts a server on the database inside `directory` (which may already hold one).
    init(directory: URL, arguments: [String] = [], environment: [String: String] = [:], fileDescriptorLimit: Int? = nil) throws {
        self.directory = directory
        databasePath = directory.appendingPathComponent("hearth.sqlite").path
        database = try Self.database(in: directory, sqlitePath: databasePath)
        // The keys go beside the SQLite file by default; a PostgreSQL URL has no directory, so the
        // server would share `./data/keys` with every other test: it keeps them in the test's.
        let keys = database == databasePath ? [:] : ["HEARTH_KEY_DIRECTORY": directory.appendingPathComponent("keys").path]
        logPath = directory.appendingPathComponent("server-\(UUID().uuidString.prefix(8)).log").path
        let serve = ["serve", "--port", "0", "--database", database, "--log-level", "info"] + arguments
        // With a limit, bash applies it (soft and hard) and then becomes the server.
        let (executable, commandLine) = fileDescriptorLimit.map { limit in
            ("/bin/bash", ["-c", "ulimit -n \(limit) && exec \"$0\" \"$@\"", Self.binary] + serve)
        } ?? (Self.binary, serve)
        process = try ChildProcess(
            executable, commandLine, environment: ChildProcess.inheritedEnvironment(overriding: keys.merging(environment) { $1 }),
            standardOutput: .pipe, standardError: .file(logPath))
        let line = try? process.standardOutput!.readLine()
        guard let line, line.hasPrefix("listening on http://"), let portText = line.split(separator: ":").last,
              let port = Int(portText)
        else {
            process.send(SIGTERM)
            process.waitForExit()
            throw Failure(description: "hearth did not start (stdout: \(line ?? "<closed>")); log:\n\(Self.contents(of: logPath))")
        }
        self.port = port
    }

    /// The database a server in `directory` runs on: `sqlitePath` on SQLite; on PostgreSQL the
    /// one whose URL the directory records, or a new one recorded there (so a server restarted
    /// in the same directory finds the same data). A test preparing a database before the
    /// server starts in `directory` asks here where it is.
    static func database(in directory: URL, sqlitePath: String) throws -> String {
        guard case .postgreSQL = TestDatabaseStore.current else { return sqlitePath }
        let record = directory.appendingPathComponent("postgres-url")
        if let url = try? String(contentsOf: record, encoding: .utf8) { return url }
        let url = try TemporaryPostgresDatabase.createDatabase(prepared: MigratedDatabase.preparation)
        try url.write(to: record, atomically: true, encoding: .utf8)
        return url
    }

    /// The server's loopback address.
    var address: SocketAddress { SocketAddress(host: "127.0.0.1", port: port) }

    /// A new raw HTTP connection to the server.
    func connect() throws -> HTTPTestClient { try HTTPTestClient(connectingTo: address) }

    /// Sends one `GET` on a new connection and returns the response.
    func get(_ path: String, headers: String = "") throws -> HTTPTestClient.Response {
        let client = try connect()
        defer { client.close() }
        try client.send("GET \(path) HTTP/1.1\r\nHost: e2e\r\n\(headers)\r\n")
        return try client.readResponse()
    }

    /// Sends one `POST` of `body` on a new connection and returns the response (the test endpoints').
    func post(_ path: String, _ body: String) throws -> HTTPTestClient.Response {
        let client = try connect()
        defer { client.close() }
        try client.send("POST \(path) HTTP/1.1\r\nHost: e2e\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        return try client.readResponse()
    }

    /// Everything the server has logged so far.
    var log: String { Self.contents(of: logPath) }

    /// The text of the file at `path`, or "" when there is none.
    private static func contents(of path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// Sends `signal` and waits for the process to exit; returns its exit status
    /// (or the signal number for a process killed by a signal).
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        process.send(signal)
        return process.waitForExit().status
    }

    /// Sends `signal` and waits for the process to exit, killing it if it has not after
    /// `watchdog` (a hang guard, not a measurement).
    /// - Returns: its exit status, or nil when the watchdog had to kill it.
    func stop(signal: Int32, watchdog: Duration) -> Int32? {
        let exited = DispatchSemaphore(value: 0)
        let killed = Atomic<Bool>(false)
        let process = process
        let (seconds, _) = watchdog.components
        DispatchQueue.global().async {
            guard exited.wait(timeout: .now() + .seconds(Int(seconds))) == .timedOut else { return }
            killed.store(true, ordering: .relaxed)
            process.send(SIGKILL)
        }
        process.send(signal)
        let status = process.waitForExit().status
        exited.signal()
        return killed.load(ordering: .relaxed) ? nil : status
    }

    /// Stops the server if it still runs and removes its directory and its database.
    func remove() {
        stop(signal: SIGKILL)
        if database != databasePath {
            try? TemporaryPostgresDatabase.dropDatabase(database)
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
