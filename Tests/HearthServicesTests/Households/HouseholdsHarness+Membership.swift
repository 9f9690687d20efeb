import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import Testing
import TestFixtures

/// Set-up and database probes for the membership and departure tests.
extension HouseholdsHarness {
    /// Makes `viewer` an active member of `householdID` with `role`: `admin` invites their
    /// address and they accept. Returns the member id.
    @discardableResult
    func join(_ viewer: Viewer, _ householdID: String, invitedBy admin: Viewer, role: MemberRole = .member) async throws -> String {
        let email = try #require(try await accounts.service.user(id: viewer.userID)).email
        let issued = try await service.inviteMember(
            .init(householdID: householdID, email: email, role: role), viewer: admin, clientAddress: "192.0.2.1")
        return try await service.acceptInvitation(.token(issued.token), viewer: viewer).member.id
    }

    /// Adds a child of `age` as `parent` does, with a parental consent record first when under
    /// 13. Returns the member id.
    @discardableResult
    func addChild(to householdID: String, by parent: Viewer, age: Int) async throws -> String {
        var consentID: String?
        if age < 13 {
            consentID = try await service.recordParentalConsent(
                householdID: householdID, method: .emailPlus, path: .ownAccount, attestation: "I am the parent and consent.",
                termsVersion: service.configuration.termsVersion, viewer: parent
            ).id
        }
        return try await service.addMember(
            householdID: householdID, .init(kind: .child, displayName: "Kid", age: age, consentID: consentID), viewer: parent
        ).member.id
    }

    /// Invites `email` to `householdID` as `admin`; returns the invited member's id.
    @discardableResult
    func invite(_ email: String, to householdID: String, by admin: Viewer) async throws -> String {
        try await service.inviteMember(.init(householdID: householdID, email: email), viewer: admin, clientAddress: "192.0.2.1")
            .invitation.member.id
    }

    /// The kinds of the change-log events on the household's topic, oldest first.
    func kinds(of householdID: String) async throws -> [String] {
        try await pool.read { database in
            try database.query("SELECT kind FROM change_log WHERE topic = ? ORDER BY sequence", [Topic.household(householdID).key])
                .map { try $0["kind"] as String }
        }
    }

    /// The departures of the household as `member user reason handling decidedBy`.
    func departures(of householdID: String) async throws -> [String] {
        try await pool.read { database in
            try database.query(
                """
                SELECT member_id, coalesce(user_id, '-') AS user, reason, task_handling, decided_by FROM member_departures
                WHERE household_id = ? ORDER BY departed_at, id
                """,
                [householdID]
            ).map { row in
                [try row["member_id"], try row["user"], try row["reason"], try row["task_handling"], try row["decided_by"]]
                    .joined(separator: " ") as String
            }
        }
    }

    /// Every table with a `household_id` column, found in the schema, so tables added later are covered.
    func householdOwnedTables() async throws -> [String] {
        try await pool.read { database in
            try SchemaCatalog.read(database).tables.values
                .filter { table in table.columns.contains { $0.name == "household_id" } }
                .map(\.name).sorted()
        }
    }

    /// How many rows of `table` belong to `householdID`.
    func rowCount(of table: String, householdID: String) async throws -> Int {
        try await pool.read { database in
            try database.scalar(Int.self, "SELECT count(*) FROM \"\(table)\" WHERE household_id = ?", [householdID]) ?? 0
        }
    }

    /// FR-17: every user with an active membership has exactly one active household, one of
    /// theirs; users without any have none.
    func expectOneActiveHouseholdPerMember(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let violations = try await pool.read { database in
            try database.query(
                """
                SELECT u.id,
                       (SELECT count(*) FROM active_households a WHERE a.user_id = u.id) AS active,
                       (SELECT count(*) FROM active_households a JOIN members m
                          ON m.household_id = a.household_id AND m.user_id = a.user_id AND m.status = 'active'
                        WHERE a.user_id = u.id) AS valid,
                       (SELECT count(*) FROM members m WHERE m.user_id = u.id AND m.status = 'active') AS memberships
                FROM users u
                """
            ).compactMap { row -> String? in
                let (active, valid, memberships): (Int, Int, Int) = (try row["active"], try row["valid"], try row["memberships"])
                let expected = memberships > 0 ? 1 : 0
                return active == expected && valid == expected ? nil : "\(try row["id"] as String): \(active) active of \(memberships)"
            }
        }
        #expect(violations.isEmpty, "FR-17 broken: \(violations)", sourceLocation: sourceLocation)
    }
}
