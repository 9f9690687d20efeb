import Foundation
import HearthStore
import Testing

@Suite struct DurabilityTests {
    /// A child process writes rows, printing each id once its write returned, and is
    /// killed with SIGKILL while writes are in flight. Every acknowledged row must be
    /// in the database afterwards, and the file must pass the integrity check.
    @Test func acknowledgedWritesSurviveKillDashNine() async throws {
        try await TemporaryDatabase.withPath { path in
            let pool = try DatabasePool(path: path)
            try await pool.write { db in try db.execute("CREATE TABLE acknowledged (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)") }
            pool.close()

            let result = await #expect(processExitsWith: .signal(SIGKILL), observing: [\.standardOutputContent]) { [path = path as String] in
                let pool = try DatabasePool(path: path)
                // Another thread kills the process at an arbitrary point of the write loop.
                Thread.detachNewThread {
                    var committed = 0
                    while committed < 100 {
                        committed = (try? pool.read { db in try db.scalar(Int.self, "SELECT count(*) FROM acknowledged") ?? 0 }) ?? 0
                    }
                    kill(getpid(), SIGKILL)
                }
                for id in 1... {
                    try pool.write { db in
                        try db.execute("INSERT INTO acknowledged (id, payload) VALUES (?, randomblob(2048))", [id])
                    }
                    // Unbuffered: the id reaches the parent before the next write starts.
                    FileHandle.standardOutput.write(Data("\(id)\n".utf8))
                }
            }
            let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
            let acknowledged = output.split(separator: "\n").compactMap { Int($0) }
            #expect(acknowledged.count >= 90)

            let reopened = try DatabasePool(path: path)
            defer { reopened.close() }
            let stored = try await reopened.read { db in
                Set(try db.query("SELECT id FROM acknowledged").map { try $0["id"] as Int })
            }
            #expect(Set(acknowledged).isSubset(of: stored))
            #expect(try reopened.integrityCheck() == ["ok"])
        }
    }
}
