import Foundation
import Glibc
import HearthHTTP
import HearthStore
import Testing

/// Start, graceful shutdown, restart and refusal to start, through the real binary.
@Suite struct LifecycleTests {
    @Test func gracefulShutdownLetsARequestInFlightComplete() throws {
        let server = try ServerProcess(["--test-endpoints"])
        defer { server.remove() }
        let client = try server.connect()
        defer { client.close() }
        // The interim 100 Continue proves the server has parsed the head and waits for the body.
        try client.send("POST /_test/journal HTTP/1.1\r\nHost: e2e\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n")
        #expect(try client.readResponse().status == 100)
        kill(server.process.processIdentifier, SIGTERM)
        // Refused connections prove the shutdown has begun before the body arrives.
        var attempts = 0
        while let probe = try? server.connect() {
            probe.close()
            attempts += 1
            try #require(attempts < 100_000, "the server kept accepting connections after SIGTERM")
        }
        try client.send("in-flight!")
        let response = try client.readResponse()
        #expect(response.status == 201)
        #expect(response.headers["Connection"] == "close")
        #expect(server.stop() == 0)
        #expect(try Self.journalKeys(server) == ["in-flight!"])
    }

    /// A request holding its event loop when SIGTERM arrives (CPU work, such as validating a
    /// heavy document): the loop has not read its inbox, yet the response it writes then says
    /// `Connection: close`, and the server exits.
    @Test func aResponseWrittenByALoopBusyWhenTheShutdownBeganSaysConnectionClose() throws {
        let server = try ServerProcess(["--test-endpoints", "--shutdown-grace", "30s"])
        defer { server.remove() }
        let client = try Self.holdRequest(on: server, body: "until-shutdown")
        defer { client.close() }
        server.process.send(SIGTERM)
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "released")
        #expect(response.headers["Connection"] == "close")
        try client.expectClosedWithoutResponse()
        #expect(server.stop(signal: SIGTERM, watchdog: .seconds(120)) == 0)
        #expect(server.log.contains("msg=stopped"))
    }

    /// A request that holds its event loop for good cannot hold the process: it exits 0 once
    /// the grace period (and its one-second allowance) is over, says what it left running, and
    /// the client's connection ends without a response. Before, the exit waited for the loop.
    @Test func exitsThoughARequestHoldsItsEventLoopPastTheGracePeriod() throws {
        let server = try ServerProcess(["--test-endpoints", "--shutdown-grace", "3s"])
        defer { server.remove() }
        let client = try Self.holdRequest(on: server, body: "forever")
        defer { client.close() }
        #expect(server.stop(signal: SIGTERM, watchdog: .seconds(120)) == 0)
        #expect(throws: (any Error).self) { try client.readResponse() }
        let warning = server.log.split(separator: "\n").first { $0.contains("shutdown grace period exceeded") }
        #expect(warning?.contains("waiting_for=http") == true)
        #expect(!server.log.contains("msg=stopped"))
    }

    /// Sends `POST /_test/hold` with `body`, after the interim 100 Continue proves the head was
    /// read, so the request is in flight when the caller goes on.
    static func holdRequest(on server: ServerProcess, body: String) throws -> HTTPTestClient {
        let client = try server.connect()
        try client.send("POST /_test/hold HTTP/1.1\r\nHost: e2e\r\nContent-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n")
        #expect(try client.readResponse().status == 100)
        try client.send(body)
        return client
    }

    @Test func exitsZeroOnSigintAndCheckpointsTheWriteAheadLog() throws {
        let server = try ServerProcess(["--test-endpoints"])
        defer { server.remove() }
        let client = try server.connect()
        try client.send("POST /_test/journal HTTP/1.1\r\nHost: e2e\r\nContent-Length: 3\r\n\r\nabc")
        #expect(try client.readResponse().status == 201)
        client.close()
        #expect(server.stop(signal: SIGINT) == 0)
        if TestDatabaseStore.isSQLite {  // PostgreSQL has no write-ahead log file of Hearth's to checkpoint
            let wal = try? FileManager.default.attributesOfItem(atPath: server.databasePath + "-wal")[.size] as? Int
            #expect((wal ?? 0) == 0)
        }
        #expect(server.log.contains("msg=stopped"))
    }

    @Test func restartsOnTheSameDatabaseWithoutMigratingAgain() throws {
        let first = try ServerProcess()
        defer { first.remove() }
        // On PostgreSQL the test's database is a copy of the migrated template: nothing to apply.
        #expect(first.log.contains("msg=\"applied migration\"") == TestDatabaseStore.isSQLite)
        #expect(first.stop() == 0)
        let second = try ServerProcess(directory: first.directory)
        defer { second.stop(signal: SIGKILL) }
        #expect(try second.get("/readyz").status == 200)
        #expect(!second.log.contains("applied migration"))
    }

    @Test func refusesADatabaseMigratedByANewerBinary() throws {
        let server = try ServerProcess()
        defer { server.remove() }
        #expect(server.stop() == 0)
        try server.databaseWrite(
            "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (9999, 'future', 'x', '2030-01-01T00:00:00.000Z')")
        #expect(throws: ServerProcess.Failure.self) { _ = try ServerProcess(directory: server.directory) }
        let outcome = try HearthCommand.run(["migrate", "--database", server.database])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("9999"))
    }

    /// Every write the server acknowledged before a SIGKILL is in the database after restart,
    /// and the database passes its integrity check.
    @Test func acknowledgedWritesSurviveSigkillMidLoad() throws {
        let server = try ServerProcess(["--test-endpoints", "--access-log", "off"])
        defer { server.remove() }
        let acknowledged = AcknowledgedKeys()
        let address = server.address
        let writers = (0..<4).map { writer in
            Thread {
                guard let client = try? HTTPTestClient(connectingTo: address) else { return }
                defer { client.close() }
                var sequence = 0
                while true {
                    let key = "w\(writer)-\(sequence)"
                    sequence += 1
                    do {
                        try client.send("POST /_test/journal HTTP/1.1\r\nHost: e2e\r\nContent-Length: \(key.utf8.count)\r\n\r\n\(key)")
                        guard try client.readResponse().status == 201 else { return }
                        acknowledged.add(key)
                    } catch {
                        return  // the server is gone
                    }
                }
            }
        }
        for writer in writers { writer.start() }
        acknowledged.waitUntilCount(reaches: 300)
        server.stop(signal: SIGKILL)
        for writer in writers { while !writer.isFinished { acknowledged.waitForChange() } }

        let restarted = try ServerProcess(directory: server.directory)
        #expect(try restarted.get("/readyz").status == 200)
        #expect(restarted.stop() == 0)
        let stored = Set(try Self.journalKeys(server))
        let missing = acknowledged.keys.subtracting(stored)
        #expect(missing.isEmpty, "acknowledged but lost: \(missing.sorted().prefix(10))")
        #expect(acknowledged.keys.count >= 300)
        if TestDatabaseStore.isSQLite {  // the file SIGKILL interrupted; PostgreSQL checks its own
            let pool = try DatabasePool(path: server.databasePath)
            defer { pool.close() }
            #expect(try pool.integrityCheck() == ["ok"])
        }
    }

    /// The keys the `/_test/journal` endpoint stored in `server`'s database, sorted.
    static func journalKeys(_ server: ServerProcess) throws -> [String] {
        try server.databaseColumn("SELECT key FROM test_journal ORDER BY key")
    }
}

/// Keys the durability test's writers saw acknowledged, with a way to wait for progress.
final class AcknowledgedKeys: @unchecked Sendable {
    // Every access to `stored` happens with `condition` locked.
    private let condition = NSCondition()
    private var stored: Set<String> = []

    func add(_ key: String) {
        condition.lock()
        stored.insert(key)
        condition.broadcast()
        condition.unlock()
    }

    var keys: Set<String> {
        condition.lock()
        defer { condition.unlock() }
        return stored
    }

    func waitUntilCount(reaches count: Int) {
        condition.lock()
        while stored.count < count { condition.wait() }
        condition.unlock()
    }

    /// Waits until a key is added or a short while has passed (writers finishing after the kill add nothing).
    func waitForChange() {
        condition.lock()
        _ = condition.wait(until: Date().addingTimeInterval(0.05))
        condition.unlock()
    }
}
