import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import TestFixtures

/// Set-up and database probes for the children and economy tests.
extension HouseholdsHarness {
    /// Creates a household named `name` as `viewer`; returns its id.
    func householdID(named name: String, _ viewer: Viewer) async throws -> String {
        try await service.createHousehold(.init(name: name), viewer: viewer).household.id
    }

    /// Household "Flat" of its admin `ana`, with `ben` a member of it and `eve` in no household.
    func flatWithMemberAndOutsider() async throws -> (householdID: String, admin: Viewer, member: Viewer, outsider: Viewer) {
        let ana = try await confirmedViewer("ana")
        let ben = try await confirmedViewer("ben")
        let eve = try await confirmedViewer("eve")
        let householdID = try await householdID(named: "Flat", ana)
        try addAccountMember(ben, householdID)
        return (householdID, ana, ben, eve)
    }

    /// Records an email-plus consent under the current terms.
    func recordConsent(
        _ householdID: String, _ path: ChildProfilePath, _ viewer: Viewer, attestation: String = "I am the parent and I consent."
    ) async throws -> ParentalConsentRecord {
        try await service.recordParentalConsent(
            householdID: householdID, method: .emailPlus, path: path, attestation: attestation,
            termsVersion: service.configuration.termsVersion, viewer: viewer)
    }

    /// Lets analytics be recorded about `viewer`, as their consent does.
    func allowAnalytics(for viewer: Viewer) throws {
        try pool.write { try $0.execute("UPDATE users SET analytics_consented_at = ? WHERE id = ?", [clock.now, viewer.userID]) }
    }

    /// Makes `viewer` an active adult member (role member) of `householdID`, as an accepted
    /// invitation does; returns the member id.
    @discardableResult
    func addAccountMember(_ viewer: Viewer, _ householdID: String) throws -> String {
        let memberID = GlobalID.make(.member, now: clock.now).rawValue
        try pool.write {
            try $0.execute(
                """
                INSERT INTO members (id, household_id, user_id, kind, role, status, display_name, joined_at, updated_at)
                VALUES (?, ?, ?, 'parent', 'member', 'active', 'Ben', ?, ?)
                """,
                [memberID, householdID, viewer.userID, clock.now, clock.now])
            // A first household becomes the active one, as the service does (ActiveHousehold).
            try $0.execute(
                "INSERT INTO active_households (user_id, household_id, activated_at) VALUES (?, ?, ?) ON CONFLICT (user_id) DO NOTHING",
                [viewer.userID, householdID, clock.now])
        }
        return memberID
    }

    /// The first column of the first row of `sql`, as text.
    func sqlText(_ sql: String) throws -> String? {
        try pool.read { try $0.scalar(String.self, "SELECT CAST((\(sql)) AS TEXT)") }
    }

    /// How many rows the tables a refused add could touch hold.
    func rowCounts() throws -> [String: Int] {
        try pool.read { database in
            var counts: [String: Int] = [:]
            for table in ["members", "parental_consents", "change_log", "analytics_events", "mutation_replays"] {
                counts[table] = try database.scalar(Int.self, "SELECT count(*) FROM \(table)")
            }
            return counts
        }
    }

    /// The tables with a value containing `text` in any column.
    func tablesContaining(_ text: String) throws -> [String] {
        try pool.read { database in
            let catalog = try SchemaCatalog.read(database)
            let find = database.dialect == .sqlite ? "instr" : "strpos"
            return try catalog.tables.keys.sorted().filter { table in
                let columns = catalog.tables[table]?.columns.map(\.name) ?? []
                let matches = columns.map { "\(find)(CAST(\"\($0)\" AS TEXT), ?) > 0" }.joined(separator: " OR ")
                let count = try database.scalar(
                    Int.self, "SELECT count(*) FROM \"\(table)\" WHERE \(matches)",
                    StatementArguments(Array(repeating: text, count: columns.count)))
                return (count ?? 0) > 0
            }
        }
    }

    /// Whether the bytes of the database file or its write-ahead log contain `text` (SQLite's
    /// files: on another store it throws, and the test runs on SQLite only).
    func databaseFilesContain(_ text: String) throws -> Bool {
        try StoreStatistics.sqlitePool(pool).filesContain(text)
    }
}
