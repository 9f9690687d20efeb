import HearthStore
import Testing

/// Many writers on one row through the real store, as the household workload's `updateMember`
/// does under several instances (two admins renaming one member over 64 connections): every
/// write must succeed, however many times PostgreSQL refuses to serialize it first.
@Suite struct PostgresContentionTests {
    /// How many writers race, each on a connection of its own.
    private static let writers = 64

    @Test func manyWritersOnOneRowAllCommitWithoutASerializationFailure() async throws {
        try await TemporaryPostgresDatabase.withStore(configure: { $0.maxConnections = Self.writers }) { store in
            try await store.write { db in
                try db.execute("CREATE TABLE members (id TEXT PRIMARY KEY, display_name TEXT NOT NULL, renames BIGINT NOT NULL)")
                try db.execute("INSERT INTO members (id, display_name, renames) VALUES ('m1', 'Sam', 0)")
                try db.execute("CREATE TABLE change_log (sequence BIGSERIAL PRIMARY KEY, body TEXT NOT NULL)")
            }
            // Read, then write what was read, like a service checking a member before renaming it, then
            // append to a log as the change log does.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<Self.writers {
                    group.addTask {
                        try await store.write { db in
                            let renames = try db.scalar(Int.self, "SELECT renames FROM members WHERE id = 'm1'") ?? 0
                            try db.execute(
                                "UPDATE members SET display_name = ?, renames = ? WHERE id = 'm1'", ["Sam \(writer)", renames + 1])
                            // What ChangeLog.record does: the append lock, the row, the notification.
                            try db.serializeAppends(to: 42)
                            let sequence = try db.scalar(Int64.self, "INSERT INTO change_log (body) VALUES (?) RETURNING sequence", ["renamed"])
                            try db.notify(channel: "contention", payload: String(sequence ?? 0))
                        }
                    }
                }
                try await group.waitForAll()
            }
            let renames = try await store.read { db in try db.scalar(Int.self, "SELECT renames FROM members WHERE id = 'm1'") }
            #expect(renames == Self.writers)
        }
    }
}
