import FoundationEssentials
import HearthDomain
@testable import HearthServices
import HearthStore
import Testing
import TestFixtures

/// What the household reads of every screen cost in SQL statements (the home screen, the
/// household switcher, a household by id), counted by the pool: each is one transaction with
/// one statement in it, however many households or members there are, so a change that reads
/// per household or per member again (N + 1) fails here. Counts, not timings. With the
/// household cache off, so that every call reads (what a kept read costs: the API's
/// `HouseholdKeptReadsTests`).
struct HouseholdReadCostTests {
    /// Nothing kept between calls.
    private static func reading(_ configuration: inout HouseholdsConfiguration) {
        configuration.keptReadEntries = 0
    }

    @Test func theHouseholdListReadsEveryMembershipWithItsHouseholdInOneStatement() async throws {
        try await HouseholdsHarness.with(configure: Self.reading) { h in
            let ana = try await h.confirmedViewer("ana")
            _ = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let one = try await statements(on: h.pool) { () async throws in #expect(try await h.service.households(viewer: ana).count == 1) }
            for name in ["Cabin", "Boat", "Farm"] { _ = try await h.service.createHousehold(.init(name: name), viewer: ana) }
            let four = try await statements(on: h.pool) { () async throws in
                let listed = try await h.service.households(viewer: ana)
                #expect(listed.map(\.record.name) == ["Flat", "Boat", "Cabin", "Farm"], "the active one first, then by name")
                #expect(listed.map(\.isActive) == [true, false, false, false])
                #expect(listed.allSatisfy { $0.access.householdID == $0.record.id && $0.access.userID == ana.userID })
            }
            #expect(one == 1)
            #expect(four == 1)
        }
    }

    @Test func theMembersPageReadsItsMembersAndTheirCountInOneStatement() async throws {
        try await HouseholdsHarness.with(configure: Self.reading) { h in
            let ana = try await h.confirmedViewer("ana")
            let (household, _, access) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let alone = try await statements(on: h.pool) { () async throws in #expect(try await h.service.members(access).totalCount == 1) }
            for name in ["Eva", "Filipe", "Graça", "Hugo", "Iris", "João"] {
                _ = try await h.service.addMember(householdID: household.id, .init(kind: .shadow, displayName: name, age: 40), viewer: ana)
            }
            let seven = try await statements(on: h.pool) { () async throws in
                let page = try await h.service.members(access, first: 5)
                #expect(page.edges.count == 5 && page.totalCount == 7 && page.hasNextPage)
            }
            #expect(alone == 1)
            #expect(seven == 1)
        }
    }

    @Test func theActiveHouseholdAndAHouseholdByIdComeWithTheirAccessCheckInOneStatement() async throws {
        try await HouseholdsHarness.with(configure: Self.reading) { h in
            let ana = try await h.confirmedViewer("ana")
            let (flat, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let (cabin, _, _) = try await h.service.createHousehold(.init(name: "Cabin"), viewer: ana)
            let active = try await statements(on: h.pool) { () async throws in
                #expect(try await h.service.activeHousehold(viewer: ana)?.record.id == flat.id, "the first one stays active")
            }
            let byID = try await statements(on: h.pool) { () async throws in
                let (record, access) = try await h.service.household(id: cabin.id, viewer: ana)
                #expect(record.id == cabin.id && access.householdID == cabin.id && access.role == .admin)
            }
            #expect(active == 1)
            #expect(byID == 1)
        }
    }

    @Test func theChecklistComesWithItsHouseholdInOneTransactionOfTwoStatements() async throws {
        try await HouseholdsHarness.with(configure: Self.reading) { h in
            let ana = try await h.confirmedViewer("ana")
            let (flat, _, access) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let alone = try await statements(on: h.pool) { () async throws in
                #expect(try await h.service.onboarding(access).nextStep == .admin)
            }
            var read: (household: HouseholdService.AccessibleHousehold, onboarding: OnboardingChecklist)?
            let together = try await statements(on: h.pool) { () async throws in
                read = try await h.service.householdWithOnboarding(id: flat.id, viewer: ana)
            }
            #expect(alone == 1, "the steps, the completion and the first chore in one statement")
            #expect(together == 2, "the check with the household's record, then the checklist")
            #expect(read?.household.record.id == flat.id && read?.household.access == access)
            #expect(read?.onboarding == (try await h.service.onboarding(access)))
        }
    }

    @Test func aStrangerGetsNoHouseholdFromTheCombinedReads() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let bruno = try await h.confirmedViewer("bruno")
            let (flat, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            await #expect(throws: ServiceError.householdNotFound) { try await h.service.household(id: flat.id, viewer: bruno) }
            await #expect(throws: ServiceError.householdNotFound) { try await h.service.householdWithOnboarding(id: flat.id, viewer: bruno) }
            #expect(try await h.service.activeHousehold(viewer: bruno) == nil)
            #expect(try await h.service.households(viewer: bruno).isEmpty)
        }
    }

    /// Index `members_page` (migration 0015) gives the list's order, so no page sorts the
    /// household's members: SQLite's plan for every shape of page uses no temporary B-tree.
    @Test(arguments: 0..<16)
    func everyShapeOfMembersPageReadsInTheIndexsOrder(shape: Int) async throws {
        try await MigratedDatabase.withPool { pool in
            let scoped = MemberPage.statement(
                includeDeparted: shape & 8 != 0, after: shape & 1 != 0, before: shape & 2 != 0, backward: shape & 4 != 0)
            let sql = scoped.replacingOccurrences(of: "{household}", with: "?")
            let arguments = Array(repeating: nil as (any DatabaseValueConvertible)?, count: sql.filter { $0 == "?" }.count)
            let plan = try pool.read { database in
                try database.query("EXPLAIN QUERY PLAN \(sql)", StatementArguments(arguments)).map { try $0["detail"] as String }
            }
            #expect(plan.contains { $0.contains("members_page") }, "\(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        }
    }
}
