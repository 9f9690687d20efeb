import Foundation
import HearthStore
import TestFixtures
import Testing

/// Migration 0006 on a database written before it: the columns that held SHA-256 digests of
/// random link tokens now hold 16-byte ids from which links are derived with the link key.
@Suite struct LinkTokenMigrationTests {
    private static let beforeLinkKeys = Array(MigratedDatabase.migrations.prefix { $0.version < 6 })

    @Test func invitationsFromBeforeGetAFreshIdSoTheirDerivedLinkCanWork() async throws {
        try await TemporaryDatabase.withPool { pool in
            try Migrator(migrations: Self.beforeLinkKeys).migrate(pool)
            let digest = [UInt8](repeating: 0xAB, count: 32)
            try pool.write { database in
                let now = "2026-11-30T10:00:00.000Z"
                try database.execute(
                    "INSERT INTO households (id, name, time_zone, created_at, updated_at) VALUES ('h', 'Home', 'UTC', ?, ?)",
                    [now, now])
                try database.execute(
                    """
                    INSERT INTO members (id, household_id, kind, role, status, display_name, joined_at, updated_at)
                    VALUES ('m', 'h', 'parent', 'member', 'invited', 'Ben', ?, ?)
                    """, [now, now])
                try database.execute(
                    """
                    INSERT INTO invitations (id, household_id, member_id, email, email_key, token_hash, created_at, sent_at, expires_at)
                    VALUES ('i', 'h', 'm', 'ben@example.com', 'ben@example.com', ?, ?, ?, '2026-12-14T10:00:00.000Z')
                    """, [digest, now, now])
            }

            try Migrator(migrations: MigratedDatabase.migrations).migrate(pool)

            let id = try #require(try pool.read { try $0.scalar([UInt8].self, "SELECT token_id FROM invitations WHERE id = 'i'") })
            #expect(id.count == 16)
            #expect(!digest.starts(with: id))
        }
    }
}
