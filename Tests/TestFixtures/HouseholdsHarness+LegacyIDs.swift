import FoundationEssentials
import HearthServices
import HearthStore

/// The bare-UUID ids of a household written before ids carried their type
/// (``HouseholdsHarness/legacyHousehold(named:admin:)``).
public struct LegacyHousehold: Sendable {
    public var householdID: String
    /// The admin's member record.
    public var memberID: String
    /// A pending invitation to `dan@example.com`.
    public var invitationID: String
    /// The invitation's invited member record.
    public var invitedMemberID: String
    /// An unused parental consent (path `OWN_ACCOUNT`).
    public var consentID: String
}

extension HouseholdsHarness {
    /// Writes a household the way a server from before typed ids stored it: bare lowercase UUIDs
    /// as ids for the household, `admin`'s active admin membership, a pending invitation with its
    /// invited member, and an unused parental consent.
    public func legacyHousehold(named name: String, admin: Viewer) throws -> LegacyHousehold {
        func bareUUID() -> String { UUID().uuidString.lowercased() }
        let legacy = LegacyHousehold(
            householdID: bareUUID(), memberID: bareUUID(), invitationID: bareUUID(), invitedMemberID: bareUUID(), consentID: bareUUID())
        let now = clock.now
        try pool.write { database in
            try database.execute(
                "INSERT INTO households (id, name, time_zone, created_by, created_at, updated_at) VALUES (?, ?, 'UTC', ?, ?, ?)",
                [legacy.householdID, name, admin.userID, now, now])
            try database.execute(
                """
                INSERT INTO members (id, household_id, user_id, kind, role, status, display_name, joined_at, updated_at)
                VALUES (?, ?, ?, 'parent', 'admin', 'active', 'Admin', ?, ?), (?, ?, NULL, 'parent', 'member', 'invited', 'Dan', ?, ?)
                """,
                [legacy.memberID, legacy.householdID, admin.userID, now, now, legacy.invitedMemberID, legacy.householdID, now, now])
            try database.execute(
                """
                INSERT INTO invitations (id, household_id, member_id, email, email_key, token_id, invited_by, created_at, sent_at, expires_at)
                VALUES (?, ?, ?, 'dan@example.com', 'dan@example.com', ?, ?, ?, ?, ?)
                """,
                [legacy.invitationID, legacy.householdID, legacy.invitedMemberID, (0..<16).map { _ in UInt8.random(in: .min ... .max) }, admin.userID, now, now,
                 now.addingTimeInterval(86_400)])
            try database.execute(
                """
                INSERT INTO parental_consents (id, household_id, consented_by, method, path, attestation, terms_version, consented_at)
                VALUES (?, ?, ?, 'email_plus', 'own_account', 'I am the parent and consent.', ?, ?)
                """,
                [legacy.consentID, legacy.householdID, admin.userID, service.configuration.termsVersion, now])
        }
        return legacy
    }
}
