import Foundation
import HearthStore
import TestFixtures
import Testing

/// Household scoping is structural (docs/architecture.md): every statement of a scoped table in
/// `Sources/` (except `Sources/HearthStore`, which has no domain) runs under its scope, which the
/// statement shows by carrying the scope's marker (``ScopeFilterCheck``). The scoped tables are
/// read from the migrated schema, so a new table with `household_id` or `user_id` is checked from
/// the migration that adds it.
@Suite struct ScopedSQLTests {
    /// Statements of one function that go without a scope on purpose, and why.
    struct Exception {
        var file: String
        var function: String
        var tables: Set<String>
        var why: String
    }

    /// The statements that legitimately run without a scope: lookups by a secret before any
    /// access exists, work for every household or account at once (retention), and the one
    /// check that makes a household's access. Keep it short, each with its reason.
    static let exceptions = [
        // Habits: the events of habits the caller has just read through HabitAudience (own or followed).
        Exception(
            file: "Sources/HearthServices/Calendar/CalendarChoreEvents.swift", function: "events(assignedTo:)", tables: ["chore_assignees"],
            why: "the assignees' subquery carries the chore scope's {scope}, which is a household's whenever a member id is given"),
        Exception(
            file: "Sources/HearthServices/HabitAdherence/HabitAdherenceService.swift", function: "figures(of:at:in:)",
            tables: ["habit_events"],
            why: "the days with an event of habits read just before under the viewer's scope and HabitAudience (a follower's too)"),
        Exception(
            file: "Sources/HearthServices/Geo/HabitEventsNear.swift", function: "statement(_:scope:since:viewerID:)",
            tables: ["habit_events", "habits"],
            why: "the within-5-km statement binds the viewer itself: owners are the viewer and whom they follow, and HabitAudience's rule"),
        // Credentials: the secret names its account, whose owner scope exists only once it is proved.
        Exception(
            file: "Sources/HearthServices/Accounts/AccountService.swift", function: "storedEmailToken(_:in:)", tables: ["email_tokens"],
            why: "an emailed link's token is looked up by its id before it proves whose it is"),
        Exception(
            file: "Sources/HearthServices/Accounts/AccountService+Sessions.swift", function: "named(by:_:in:)", tables: ["sessions"],
            why: "the session a refresh token's digest or a verified access token's session id names, before it proves the owner"),
        Exception(
            file: "Sources/HearthServices/Accounts/RefreshDecision.swift", function: "init(_:grace:at:in:)", tables: ["sessions"],
            why: "the session of a spent refresh token presented again, to revoke it: the token names it"),
        Exception(
            file: "Sources/HearthServices/Accounts/AccountService+SignInProviders.swift", function: "linkedUser(_:in:)",
            tables: ["provider_identities"], why: "the account a provider's verified identity token names, at sign-in"),
        Exception(
            file: "Sources/HearthServices/GoogleCalendar/GoogleCalendarService+Connection.swift",
            function: "takePendingAuthorization(stateHash:for:at:in:)", tables: ["google_authorizations"],
            why: "Google's redirect carries only the OAuth state: its hash names the attempt, and the account it was begun by"),
        Exception(
            file: "Sources/HearthServices/Accounts/AccountService+Avatar.swift", function: "avatar(id:)", tables: ["avatars"],
            why: "avatars are served by id to whoever holds their URL, like a profile picture link; the id is unguessable"),
        // Invitees are not members yet: what they may see is established by the token or their confirmed address.
        Exception(
            file: "Sources/HearthServices/Households/InvitationRecord.swift", function: "find(token:links:in:)", tables: ["invitations"],
            why: "the invitation an invitation link's token names, before anyone has access to its household"),
        Exception(
            file: "Sources/HearthServices/Households/InvitationRecord.swift", function: "find(id:addressedTo:in:)",
            tables: ["invitations"], why: "an invitation addressed to the invitee's confirmed address, across households"),
        Exception(
            file: "Sources/HearthServices/Households/InvitationRecord.swift", function: "all(addressedTo:in:)", tables: ["invitations"],
            why: "the invitations addressed to the invitee's confirmed address, across households (myInvitations)"),
        Exception(
            file: "Sources/HearthServices/Households/InvitationRecord.swift", function: "received(at:in:)",
            tables: ["invitations", "households", "members"],
            why: "the household's name and the inviter's name as the invitee sees them, for an invitation found as above"),
        Exception(
            file: "Sources/HearthServices/Households/InvitationRecord.swift", function: "decline(in:)", tables: ["members"],
            why: "the invitee declines: the invited placeholder of an invitation found as above goes"),
        // Making a household and its access.
        Exception(
            file: "Sources/HearthServices/Households/HouseholdService.swift", function: "createHousehold(_:viewer:clientMutationID:)",
            tables: ["households"], why: "the new household's row: no access exists before its first member does"),
        Exception(
            file: "Sources/HearthServices/Households/HouseholdAccess.swift", function: "check(viewer:owning:id:requiring:notFound:in:)",
            tables: [ScopeFilterCheck.interpolatedTable],
            why: "which household an object's id belongs to, the question the access check answers before access exists"),
        Exception(
            file: "Sources/HearthServices/Chores/ChoreAccess.swift", function: "check(viewer:owning:id:readingShared:in:)", tables: ["chores", "tags"],
            why: "which household or account a chore's or tag's id belongs to, the question the chore access check answers"),
        Exception(
            file: "Sources/HearthServices/Chores/ChoreService+Presets.swift", function: "householdPreset(id:viewer:in:)",
            tables: ["chore_presets"], why: "which household a saved preset's id belongs to, before its access is checked"),
        // The server's own work on chores has no viewer: it acts for the household (as its first admin) or the owner.
        Exception(
            file: "Sources/HearthServices/Households/HouseholdAccess.swift", function: "scheduled(householdID:in:)", tables: ["members"],
            why: "the admin whose access scheduled work in a household runs with (planning chore instances), before any access exists"),
        Exception(
            file: "Sources/HearthServices/Chores/Instances/ChoreAccess+Scheduled.swift", function: "scheduled(choreID:in:)", tables: ["chores"],
            why: "which household or account a chore a planning job names belongs to, before its scheduled access exists"),
        Exception(
            file: "Sources/HearthServices/Vacations/VacationJobs.swift", function: "vacation(of:in:)", tables: ["member_vacations"],
            why: "which household a vacation a start or end job names belongs to, before its scheduled access exists"),
        // Offline clients: ids are unique everywhere, and deletes win over edits.
        Exception(
            file: "Sources/HearthServices/Sync/ClientIDs.swift", function: "isTaken(_:table:_:)",
            tables: ["client_ids", ScopeFilterCheck.interpolatedTable],
            why: "whether anyone's object has (or had) the id a client made: existence only, across accounts and households"),
        Exception(
            file: "Sources/HearthServices/Calendar/CalendarFeedService.swift", function: "feed(hash:in:)", tables: ["calendar_feeds"],
            why: "the calendar feed a secret token opens, before any access exists: the token is the credential"),
        Exception(
            file: "Sources/HearthServices/Widgets/WidgetService.swift", function: "token(hash:in:)", tables: ["widget_tokens"],
            why: "the widget token a request presents, before any access exists: the token is the credential"),
        // Offline sync: a scope's content is the same whoever reads it; each id is then looked up for the reader.
        Exception(
            file: "Sources/HearthServices/Sync/SyncScopes.swift", function: "selections(of:)",
            tables: [
                "households", "members", "chores", "tags", "chore_instances", "chore_completions", "habits", "habit_events", "chore_shares",
                "availability_events", "imported_calendars",
            ],
            why: "the ids of a sync scope's objects (gained, lost, deleted with a household, or a full resync), each resolved for the reader as node(id:) does"),
        // Offline sync of shared chores: a share joins two accounts (or an account and a household), and its
        // reactions run for the change's author on both sides, reading only the shares the change concerns.
        Exception(
            file: "Sources/HearthServices/Sync/ShareSyncScopes.swift", function: "top level", tables: ["chore_shares", "chores"],
            why: "the chores a share (bound by id) covers: the share scope's content, the same whoever reads it"),
        Exception(
            file: "Sources/HearthServices/Sync/ShareSyncScopes.swift", function: "covering(choreID:in:)", tables: ["chore_shares", "chores"],
            why: "the shares covering a chore its owner just changed, whose topics repeat the change"),
        Exception(
            file: "Sources/HearthServices/Sync/ShareSyncScopes.swift", function: "repeatTagChangeOnShares(_:_:in:)", tables: ["chore_shares"],
            why: "the shares of a tag its owner just renamed, whose topics repeat the change"),
        Exception(
            file: "Sources/HearthServices/Sync/ShareSyncScopes.swift", function: "recipients(of:in:)", tables: ["chore_shares", "members"],
            why: "the accounts a share reaches (its recipient, its household's members), which gain or lose its scope"),
        Exception(
            file: "Sources/HearthServices/Sync/ShareSyncScopes.swift", function: "pairs(through:in:_:)", tables: ["chore_shares", "members"],
            why: "the shares reaching through a membership that just began or ended, and the accounts they reach"),
        Exception(
            file: "Sources/HearthServices/Chores/Sharing/ChoreService+Sharing.swift", function: "recordEnd(ofSharesWhere:_:_:at:in:)",
            tables: ["chore_shares"], why: "the shares ended by a revoke or by their tag's or household's deletion, read before they go"),
        // Retention works across every account and household, by age.
        Exception(
            file: "Sources/HearthServices/Retention/PruneRule.swift", function: "all(changeLog:)",
            tables: ["sessions", "email_tokens", "mutation_replays", "notifications", "google_authorizations"],
            why: "retention deletes ended sessions, spent tokens, old replays, old notifications and expired Google connection attempts of every account"),
        Exception(
            file: "Sources/HearthServices/Retention/PruneRule.swift", function: "pruneExpiredInvitations(before:limit:changeLog:in:)",
            tables: ["invitations", "members"], why: "retention deletes expired invitations, with their placeholders, of every household"),
        Exception(
            file: "Sources/HearthServices/Retention/PruneRule.swift", function: "pruneTombstones(before:limit:in:)", tables: ["client_ids"],
            why: "retention deletes the client-made ids of objects whose tombstones expire, of every account"),
    ]

    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The columns of every table of the migrated schema.
    private static func schemaColumns() async throws -> [String: Set<String>] {
        try await MigratedDatabase.withPool { pool in
            try pool.read { database in
                var columns: [String: Set<String>] = [:]
                try database.forEachRow(
                    "SELECT m.name AS table_name, p.name AS column_name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table'"
                ) { row in
                    columns[try row["table_name"] as String, default: []].insert(try row["column_name"])
                }
                return columns
            }
        }
    }

    @Test func everyStatementOfAScopedTableCarriesItsScope() async throws {
        let tables = ScopeFilterCheck.scopedTables(columns: try await Self.schemaColumns())
        #expect(tables["members"] == [.household, .owner, .householdOrOwner] && tables["invitations"] == [.household], "household tables are found")
        #expect(tables["sessions"] == [.owner] && tables["mutation_replays"] == [.owner], "owner tables are found")
        #expect(tables["users"] == nil && tables["change_log"] == nil, "tables of no scope are not checked")
        let check = ScopeFilterCheck(tables: tables)
        let sources = Self.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.subpaths(atPath: sources.path)).filter { path in
            path.hasSuffix(".swift") && !path.hasPrefix("HearthStore/")
        }
        #expect(files.contains("HearthServices/Households/HouseholdService.swift"), "the walk finds the services")
        var findings: [ScopeFilterCheck.Finding] = []
        for path in files.sorted() {
            let source = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            findings += check.findings(in: source, file: "Sources/" + path)
        }
        func isAllowed(_ finding: ScopeFilterCheck.Finding, by exception: Exception) -> Bool {
            exception.file == finding.file && exception.function == finding.function && exception.tables.contains(finding.table)
        }
        let forbidden = findings.filter { finding in !Self.exceptions.contains { isAllowed(finding, by: $0) } }
        #expect(forbidden.isEmpty, """
            Statements of scoped tables without their scope (see docs/architecture.md, "Household scoping is structural"): \
            run them through the HouseholdScope or OwnerScope and name the scope with {household} or {owner}, or, when \
            no scope can exist yet, add an exception with its reason:
            \(forbidden.map(\.description).joined(separator: "\n"))
            """)
        for exception in Self.exceptions {
            for table in exception.tables {
                #expect(
                    findings.contains { $0.file == exception.file && $0.function == exception.function && $0.table == table },
                    "the exception for \(table) in \(exception.function) of \(exception.file) is no longer needed: remove it")
            }
        }
    }

    @Test func scopedTablesAreFoundByTheirColumns() {
        let tables = ScopeFilterCheck.scopedTables(columns: [
            "chores": ["id", "household_id"], "follows": ["user_id", "followed_id"], "members": ["household_id", "user_id"],
            "users": ["id", "email"], "households": ["id", "name"],
        ])
        #expect(tables == [
            "households": [.household], "chores": [.household], "follows": [.owner], "members": [.household, .owner, .householdOrOwner],
        ])
    }

    /// The check fails on what it exists to catch: statements of scoped tables without their
    /// scope, with the wrong scope, or of a table it cannot see.
    @Test func theCheckFindsEachStatementWithoutTheScopeItsTableNeeds() {
        let check = ScopeFilterCheck(tables: [
            "members": [.household, .owner], "invitations": [.household], "sessions": [.owner], "tags": [.household, .owner, .householdOrOwner],
        ])
        let source = #"""
            struct Repository {
                /// Never "SELECT id FROM members WHERE id = ?" in a comment.
                func member(id: String, in database: Database) throws -> Row? {
                    try database.queryOne("SELECT id FROM members WHERE id = ?", [id])
                }
                static func revoke(_ id: String, at now: Date, _ database: Database) throws {
                    try database.execute("UPDATE sessions SET revoked_at = ? WHERE id = ?", [now, id])
                }
                init(owning table: String, id: String) {
                    sql = "SELECT household_id FROM \(table) WHERE id = ?"
                }
                private func wrongScopes(_ scope: HouseholdScope, handler: (Int, Int) -> Void = { _, _ in }) {
                    _ = "SELECT id FROM sessions WHERE user_id = ? AND household_id = {household}"
                    _ = "SELECT i.id FROM invitations i JOIN members m ON m.household_id = i.household_id WHERE m.kind = {owner}"
                    _ = "SELECT id FROM invitations WHERE {scope}"
                }
            }
            """#
        #expect(check.findings(in: source, file: "f").map(\.description) == [
            "f:4: member(id:in:): members", "f:7: revoke(_:at:_:): sessions",
            "f:10: init(owning:id:): \(ScopeFilterCheck.interpolatedTable)",
            "f:13: wrongScopes(_:handler:): sessions", "f:14: wrongScopes(_:handler:): invitations",
            "f:15: wrongScopes(_:handler:): invitations",
        ])
    }

    @Test func statementsUnderTheirScopePass() {
        let check = ScopeFilterCheck(tables: [
            "households": [.household], "members": [.household, .owner], "invitations": [.household], "sessions": [.owner],
            "tags": [.household, .owner, .householdOrOwner],
        ])
        let source = #"""
            func scoped(_ scope: HouseholdScope, _ owner: OwnerScope) throws {
                _ = "SELECT \(MemberRecord.columns) FROM members WHERE household_id = {household} AND status <> 'departed'"
                _ = "INSERT INTO invitations (id, household_id, email_key) VALUES (?, {household}, ?)"
                _ = "UPDATE households SET name = ? WHERE id = {household}"
                _ = "DELETE FROM sessions WHERE id = ? AND user_id = {owner}"
                _ = "SELECT id FROM members WHERE household_id = ? AND user_id = {owner} AND status = 'active'"
                _ = """
                    SELECT id FROM invitations
                    WHERE household_id IN (SELECT household_id FROM members m WHERE m.user_id = {owner} AND m.status = 'active')
                    """
                _ = "SELECT name FROM users WHERE id = ?"
                _ = "SELECT id FROM tags WHERE {scope} AND name_key = ?"
                _ = "INSERT INTO tags (id, household_id, user_id, name) VALUES (?, {scope_ids}, ?)"
                _ = "Nobody from members of another household sees this."
            }
            """#
        #expect(check.findings(in: source, file: "f").isEmpty)
    }
}
