@testable import HearthServices
import HearthStore
import Testing
import TestFixtures

/// The scopes bind their key themselves (``ScopedDatabase``): where the marker stands among the
/// statement's placeholders, never from the caller's arguments, and only in statements that name
/// the scope.
@Suite struct ScopedDatabaseTests {
    @Test func theKeyIsBoundWhereEachMarkerStandsAmongThePlaceholders() throws {
        let statement = try ScopedStatement(
            "SELECT a FROM t WHERE b = ? AND household_id = {household} AND c IN (?, ?) OR d = {household}", marker: "{household}")
        #expect(statement.sql == "SELECT a FROM t WHERE b = ? AND household_id = ? AND c IN (?, ?) OR d = ?")
        #expect(statement.slots == [1, 4])
        #expect(statement.arguments(["b", 1, 2], key: "h").values == [.text("b"), .text("h"), .integer(1), .integer(2), .text("h")])
        let first = try ScopedStatement("INSERT INTO t (household_id, a) VALUES ({household}, ?)", marker: "{household}")
        #expect(first.arguments(["a"], key: "h").values == [.text("h"), .text("a")])
    }

    @Test func aStatementThatDoesNotNameTheScopeIsRefused() throws {
        let refused = #expect(throws: StoreError.self) {
            try ScopedStatement("SELECT a FROM t WHERE household_id = ?", marker: "{household}")
        }
        #expect(refused?.extendedCode == .misuse && refused?.sql == "SELECT a FROM t WHERE household_id = ?")
        #expect(throws: StoreError.self, "the other scope's marker does not name this one") {
            try ScopedStatement("SELECT a FROM t WHERE user_id = {owner}", marker: "{household}")
        }
    }

    @Test func rewrittenTextsAreKeptUpToTheCapacityAndOthersStillRewritten() throws {
        let statements = ScopedStatements(marker: "{owner}", capacity: 2)
        for table in ["a", "b", "c"] {
            let statement = try statements.statement(for: "SELECT x FROM \(table) WHERE user_id = {owner}")
            #expect(statement.sql == "SELECT x FROM \(table) WHERE user_id = ?")
        }
        #expect(statements.count == 2)
        _ = try statements.statement(for: "SELECT x FROM a WHERE user_id = {owner}")
        #expect(statements.count == 2)
    }

    @Test func textsAlikeAtBothEndsAreKeptApart() throws {
        // The cache hashes a text by its length and ends: texts differing only in the middle share
        // a bucket, never a rewrite.
        let statements = ScopedStatements(marker: "{owner}")
        let conditions = String(repeating: "a = 1 AND ", count: 4)
        let start = "SELECT x FROM t WHERE user_id = {owner} AND " + conditions
        let end = String(repeating: " AND b = 2", count: 8)
        for middle in ["c = ?", "d = ?", "c = ?"] {
            let statement = try statements.statement(for: start + middle + end)
            #expect(statement.sql == "SELECT x FROM t WHERE user_id = ? AND " + conditions + middle + end)
            #expect(statement.slots == [0])
        }
        #expect(statements.count == 2)
    }

    @Test func aHouseholdScopeReachesOnlyItsOwnHouseholdsRows() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let anas = try await h.service.createHousehold(.init(name: "Ana's"), viewer: ana).household.id
            let bens = try await h.service.createHousehold(.init(name: "Ben's"), viewer: ben).household.id
            try await h.pool.write { database in
                let scope = try HouseholdScope.check(viewer: ana, householdID: anas, in: database)
                let names = try scope.query("SELECT display_name FROM members WHERE household_id = {household}")
                #expect(try names.map { try $0["display_name"] as String } == ["ana"])
                // An update naming Ben's member id changes nothing outside Ana's household.
                let bensMember = try #require(try database.scalar(String.self, "SELECT id FROM members WHERE household_id = ?", [bens]))
                try scope.execute("UPDATE members SET display_name = 'x' WHERE id = ? AND household_id = {household}", [bensMember])
                #expect(scope.changedRowCount == 0)
                #expect(throws: StoreError.self, "a statement without the marker does not run") {
                    try scope.execute("UPDATE members SET display_name = 'x' WHERE id = ?", [bensMember])
                }
                // In a savepoint: the refused statement would abort PostgreSQL's whole transaction.
                #expect(throws: StoreError.self, "the marker is not SQL: the bare connection refuses it") {
                    try database.savepoint { try database.execute("UPDATE members SET display_name = 'x' WHERE household_id = {household}") }
                }
            }
            #expect(try h.sqlText("SELECT display_name FROM members WHERE household_id = '\(bens)'") == "ben")
        }
    }

    @Test func anOwnerScopeReachesOnlyItsOwnersRows() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            try await h.pool.write { database in
                let owner = OwnerScope(Owner(ana), database)
                let sessions = try owner.query("SELECT user_id FROM sessions WHERE user_id = {owner}")
                #expect(try sessions.map { try $0["user_id"] as String } == [ana.userID])
                try owner.execute("UPDATE sessions SET device_label = 'x' WHERE id = ? AND user_id = {owner}", [ben.sessionID])
                #expect(owner.changedRowCount == 0)
            }
        }
    }
}
