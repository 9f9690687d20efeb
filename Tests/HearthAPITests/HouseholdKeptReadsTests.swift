import GraphQL
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// The household reads kept while nothing commits (`HouseholdKeptReads`): a repeated screen
/// costs the store's mark and nothing else, and whatever commits, through the service, another
/// connection or the viewer's own removal, shows in the very next request. Counts, not timings.
@Suite struct HouseholdKeptReadsTests {
    static let home = """
        { activeHousehold { id name viewerMember { id role } members(first: 20) { totalCount edges { node { id displayName isViewer age } } } } }
        """
    static let switcher = "{ households { id name isActive } }"
    static let economy = "query($id: ID!) { household(id: $id) { name economy { currencyPerToken } } }"
    static let checklist = "query($id: ID!) { household(id: $id) { name onboarding { nextStep } } }"

    /// The statements and read transactions `query` took as `viewer`, and its result (which must
    /// have no errors).
    private func cost(
        _ fixture: HouseholdsAPIFixture, _ query: String, _ variables: [String: JSON] = [:], as viewer: Viewer
    ) async throws -> (statements: Int, transactions: Int, result: ExecutionResult) {
        let pool = fixture.harness.pool
        let (statements, lendings) = (try StoreStatistics.statements(of: pool), try StoreStatistics.lendings(of: pool))
        let result = try await fixture.execute(query, variables, as: viewer)
        #expect(result.errors.isEmpty, "\(result.errors)")
        return (try StoreStatistics.statements(of: pool) - statements, try StoreStatistics.lendings(of: pool) - lendings, result)
    }

    /// The string `json` holds, if it is one.
    private func text(_ json: JSON?) -> String? {
        if case .string(let text)? = json { return text }
        return nil
    }

    /// The display names of the home screen's members, in order.
    private func names(_ result: ExecutionResult) -> [String] {
        guard case .array(let edges)? = result.data?["activeHousehold"]?["members"]?["edges"] else { return [] }
        return edges.compactMap { text($0["node"]?["displayName"]) }
    }

    /// Each screen asked for again costs the mark alone and is the text the first completed, written
    /// back whole (`HouseholdTextCache`: the same framed value), until the next commit.
    @Test(.enabled(if: TestDatabaseStore.isSQLite, "SQLite's change mark (PostgreSQL gives none: every request reads)"))
    func aRepeatedScreenCostsOnlyTheStoresMarkAndIsItsKeptText() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let id: [String: JSON] = ["id": .string(flat)]
            for (query, variables) in [(Self.home, [:]), (Self.switcher, [:]), (Self.economy, id), (Self.checklist, id)] {
                _ = try await fixture.harness.service.updateHousehold(id: flat, .init(name: "Flat \(query.count)"), viewer: ana)
                let first = try await cost(fixture, query, variables, as: ana)
                let again = try await cost(fixture, query, variables, as: ana)
                #expect(first.result.framedValue == nil, "\(query): completed afresh after the commit")
                #expect(again.statements == 1, "\(query): the mark (PRAGMA data_version) alone")
                #expect(again.transactions == 1, "\(query): the reader the mark is read on, no read transaction")
                #expect(again.result.data == first.result.data)
                let kept = try #require(again.result.framedValue, "\(query): the kept text")
                #expect(try await cost(fixture, query, variables, as: ana).result.framedValue?.value === kept.value, "\(query): the same text again")
                _ = try await fixture.harness.service.updateHousehold(id: flat, .init(name: "Renamed \(query.count)"), viewer: ana)
                let after = try await cost(fixture, query, variables, as: ana)
                #expect(after.result.framedValue == nil, "\(query): completed afresh after the next commit")
                #expect(after.result.data != first.result.data, "\(query): the new name shows")
            }
        }
    }

    /// After a commit that leaves what a screen read as it was (another household's rename, a
    /// member's rename for the screens that do not list members), the screen reads again and is
    /// still its kept text (`HouseholdTextCache`: the same inputs complete to the same text);
    /// a screen whose reads the commit changed is completed afresh.
    @Test(.enabled(if: TestDatabaseStore.isSQLite, "SQLite's change mark (PostgreSQL gives none: every request reads)"))
    func aCommitThatLeavesAScreensReadsAsTheyWereLeavesItsTextAsItWas() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let shadow = try await fixture.harness.service.addMember(householdID: flat, .init(kind: .shadow, displayName: "Hugo", age: 15), viewer: ana)
            let bruno = try await fixture.person("bruno")
            let (other, _) = try await fixture.household("Other", by: bruno)
            let id: [String: JSON] = ["id": .string(flat)]
            let screens = [(Self.home, [:]), (Self.switcher, [:]), (Self.economy, id), (Self.checklist, id)]
            var kept: [SerializedValue] = []
            for (query, variables) in screens {
                _ = try await cost(fixture, query, variables, as: ana)
                kept.append(try #require(try await cost(fixture, query, variables, as: ana).result.framedValue?.value, "\(query): kept"))
            }
            for ((query, variables), text) in zip(screens, kept) {
                _ = try await fixture.harness.service.updateHousehold(id: other, .init(name: "Other \(query.count)"), viewer: bruno)
                let after = try await cost(fixture, query, variables, as: ana)
                #expect(after.statements > 1, "\(query): read again after the commit")
                #expect(after.result.framedValue?.value === text, "\(query): the same text, not completed again")
            }
            _ = try await fixture.harness.service.updateMember(id: shadow.member.id, displayName: "Hugo M.", viewer: ana)
            for ((query, variables), text) in zip(screens, kept) {
                let after = try await cost(fixture, query, variables, as: ana)
                if query == Self.home {
                    #expect(after.result.framedValue == nil, "the home screen lists the member: completed afresh")
                    #expect(names(after.result).contains("Hugo M."))
                } else {
                    #expect(after.result.framedValue?.value === text, "\(query) does not list members: the same text")
                }
            }
        }
    }

    /// The signed-in account, which every request's terms check reads, stays kept across commits
    /// that wrote no account (`CommitScopedCache` by the `users` table's commits); any change to
    /// the `users` table, even by SQL of its own, ends it.
    @Test(.enabled(if: TestDatabaseStore.isSQLite, "SQLite tells the tables a commit changed (PostgreSQL: every commit ends it)"))
    func theSignedInAccountStaysKeptUntilACommitChangesAnAccount() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            _ = try await fixture.household("Flat", by: ana)
            let bruno = try await fixture.person("bruno")
            let (other, _) = try await fixture.household("Other", by: bruno)
            let accounts = fixture.harness.accounts.service
            _ = try await cost(fixture, Self.switcher, as: ana)
            #expect(accounts.cachedUser(id: ana.userID) != nil)
            _ = try await fixture.harness.service.updateHousehold(id: other, .init(name: "Other renamed"), viewer: bruno)
            #expect(accounts.cachedUser(id: ana.userID) != nil, "a household's commit leaves the accounts kept")
            try await fixture.harness.pool.write { try $0.execute("UPDATE users SET username = username WHERE id = ?", [bruno.userID]) }
            #expect(accounts.cachedUser(id: ana.userID) == nil, "a commit to `users` ends them")
        }
    }

    /// A text one of whose fields read beyond what its root field read (a page of members, a
    /// checklist, whether the household is active) is kept only until the next commit, whatever
    /// the commit changed.
    @Test(.enabled(if: TestDatabaseStore.isSQLite, "SQLite's change mark (PostgreSQL gives none: every request reads)"))
    func aTextReadingBeyondItsRootFieldIsCompletedAfreshAfterAnyCommit() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let bruno = try await fixture.person("bruno")
            let (other, _) = try await fixture.household("Other", by: bruno)
            let id: [String: JSON] = ["id": .string(flat)]
            let queries: [(String, [String: JSON])] = [
                ("{ households { id members(first: 5) { totalCount } } }", [:]),
                ("{ households { id onboarding { nextStep } } }", [:]),
                ("query($id: ID!) { household(id: $id) { id isActive } }", id),
            ]
            for (query, variables) in queries {
                _ = try await cost(fixture, query, variables, as: ana)
                let again = try await cost(fixture, query, variables, as: ana)
                #expect(again.result.framedValue != nil, "\(query): kept while nothing commits")
                _ = try await fixture.harness.service.updateHousehold(id: other, .init(name: "Other \(query.count)"), viewer: bruno)
                let after = try await cost(fixture, query, variables, as: ana)
                #expect(after.result.framedValue == nil, "\(query): completed afresh")
                #expect(after.result.data == again.result.data)
            }
        }
    }

    @Test func aStepDoneShowsInTheNextChecklistOfEveryAdmin() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let id: [String: JSON] = ["id": .string(flat)]
            for _ in 0..<2 {
                #expect(try await cost(fixture, Self.checklist, id, as: ana).result.data?["household"]?["onboarding"]?["nextStep"] == .string("ADMIN"))
            }
            _ = try await fixture.harness.service.completeOnboardingStep(.admin, householdID: flat, viewer: ana)
            #expect(try await cost(fixture, Self.checklist, id, as: ana).result.data?["household"]?["onboarding"]?["nextStep"] == .string("MEMBERS"))
        }
    }

    @Test func theCacheTurnedOffReadsEveryTime() async throws {
        try await HouseholdsAPIFixture.with(configure: { $0.keptReadEntries = 0 }) { fixture in
            let ana = try await fixture.person("ana")
            _ = try await fixture.household("Flat", by: ana)
            _ = try await cost(fixture, Self.home, as: ana)  // fills the accounts' cache the creation emptied
            let first = try await cost(fixture, Self.home, as: ana)
            let again = try await cost(fixture, Self.home, as: ana)
            #expect(first.statements > 1)
            #expect(again.statements == first.statements)
            #expect(again.transactions == 1, "one read transaction, no mark")
        }
    }

    @Test func aRenameShowsInTheNextRequestOfEveryMember() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let bruno = try await fixture.person("bruno")
            _ = try await fixture.join(flat, bruno, as: "Bruno")
            let shadow = try await fixture.harness.service.addMember(householdID: flat, .init(kind: .shadow, displayName: "Hugo", age: 15), viewer: ana)
            for viewer in [ana, bruno, ana, bruno] { #expect(names(try await cost(fixture, Self.home, as: viewer).result).contains("Hugo")) }
            _ = try await fixture.harness.service.updateMember(id: shadow.member.id, displayName: "Hugo M.", viewer: ana)
            for viewer in [ana, bruno] {
                let home = try await cost(fixture, Self.home, as: viewer)
                #expect(names(home.result).contains("Hugo M."))
                #expect(!names(home.result).contains("Hugo"))
            }
        }
    }

    /// One kept page serves every member, but whether a member is the viewer, and whether the
    /// viewer may see ages (admins only), are each viewer's own, and so is each kept text.
    @Test func aSharedPageShowsEachViewerTheirOwnMemberAndWhatTheirRoleMaySee() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let (flat, anaMember) = try await fixture.household("Flat", by: ana)
            let bruno = try await fixture.person("bruno")
            let brunoMember = try await fixture.join(flat, bruno, as: "Bruno")
            _ = try await fixture.harness.service.addMember(householdID: flat, .init(kind: .shadow, displayName: "Avó", age: 78), viewer: ana)
            func member(_ result: ExecutionResult, _ name: String) -> JSON? {
                guard case .array(let edges)? = result.data?["activeHousehold"]?["members"]?["edges"] else { return nil }
                return edges.first { text($0["node"]?["displayName"]) == name }?["node"]
            }
            // In turn, three times: read, then each viewer's kept text.
            for _ in 0..<3 {
                let asAna = try await cost(fixture, Self.home, as: ana)
                let asBruno = try await cost(fixture, Self.home, as: bruno)
                #expect(member(asAna.result, "Avó")?["age"] == .int(78))
                #expect(member(asBruno.result, "Avó")?["age"] == .null)
                #expect(member(asAna.result, "Bruno")?["isViewer"] == .bool(false))
                #expect(member(asBruno.result, "Bruno")?["isViewer"] == .bool(true))
                #expect(text(asAna.result.data?["activeHousehold"]?["viewerMember"]?["id"]) == anaMember)
                #expect(text(asBruno.result.data?["activeHousehold"]?["viewerMember"]?["id"]) == brunoMember)
            }
        }
    }

    @Test func aRemovedMemberLosesTheHouseholdWithTheCommit() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let bruno = try await fixture.person("bruno")
            let brunoMember = try await fixture.join(flat, bruno, as: "Bruno")
            let id: [String: JSON] = ["id": .string(flat)]
            for _ in 0..<2 {
                _ = try await cost(fixture, Self.economy, id, as: bruno)
                _ = try await cost(fixture, Self.home, as: bruno)
            }
            _ = try await fixture.harness.service.removeMember(id: brunoMember, incompleteTasks: .unassign, viewer: ana)
            let household = try await fixture.execute(Self.economy, id, as: bruno)
            #expect(household.errors.first?.extensions["code"] == .string("NOT_FOUND"), "\(household.errors)")
            let home = try await cost(fixture, Self.home, as: bruno)
            #expect(home.result.data?["activeHousehold"] == .null)
            #expect(try await cost(fixture, Self.switcher, as: bruno).result.data?["households"] == .array([]))
        }
    }

    /// A commit through another connection to the file (another process does the same: the
    /// store's mark is SQLite's data version, `ChangeMarkTests`) shows in the next request.
    @Test(.enabled(if: TestDatabaseStore.isSQLite, "a second connection to SQLite's file"))
    func aCommitOfAnotherConnectionShowsInTheNextRequest() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let id: [String: JSON] = ["id": .string(flat)]
            for _ in 0..<2 { _ = try await cost(fixture, Self.economy, id, as: ana) }
            let path = try #require(fixture.harness.pool as? DatabasePool).path
            let other = try DatabasePool(path: path)
            defer { other.close() }
            try await other.write { db in try db.execute("UPDATE households SET name = 'Renamed elsewhere' WHERE id = ?", [flat]) }
            let after = try await cost(fixture, Self.economy, id, as: ana)
            #expect(after.result.data?["household"]?["name"] == .string("Renamed elsewhere"))
        }
    }
}
