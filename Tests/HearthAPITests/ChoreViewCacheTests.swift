import Foundation
import GraphQL
import HearthAPI
import HearthDomain
import HearthServices
import HearthStore
import Support
import TestFixtures
import TestPython
import Testing

/// `ChoreViewCache`: a kept chore list is written back only while nothing it shows changed. The
/// proof is a random run of mutations and clock moves after each of which every viewer's lists,
/// read through the cache, equal the lists read afresh; plus focused tests of what must be seen
/// on the next read, and of the cache's limits at their edges.
struct ChoreViewCacheTests {
    static let myChores = """
        query { myChores(first: 20) { edges { cursor node { id dueAt status isPersonal completedAt isMaterialized claimedAt
          household { id name } member { id displayName } claimant { id }
          chore { id title tokens requiresApproval assignmentMode tags { id name color } assignees { displayName avatarUrl member { id } } }
          steps { isDone isLocked step { id title } } } } pageInfo { hasNextPage endCursor } } }
        """
    static let householdChores = """
        query ($id: ID!, $now: DateTime!) { householdChores(householdId: $id, first: 50) { totalCount edges { cursor node {
          id title assignmentMode tokens requiresApproval hasSteps viewerCanEdit
          tags { id name color } assignees { displayName avatarUrl member { id status } }
          schedule { __typename ... on RecurringSchedule { recurrence } ... on OnceSchedule { dueAt }
            ... on AfterCompletionSchedule { every unit firstDueAt } }
          occurrences(after: $now, first: 2) } } pageInfo { hasNextPage endCursor } } }
        """
    static let personalChores = "{ personalChores(first: 50) { edges { node { id title tags { name } } } } }"

    /// The lists `viewer` sees, read through the cache and afresh, as response texts.
    static func lists(_ fixture: HouseholdsAPIFixture, _ viewer: Viewer, household: String, now: Date) async throws -> [(cached: String, fresh: String)] {
        let variables: [String: JSON] = ["id": .string(household), "now": .string(WallClock.Instant(now).iso8601)]
        var lists: [(String, String)] = []
        for (query, arguments) in [(myChores, [:]), (householdChores, variables), (personalChores, [:])] as [(String, [String: JSON])] {
            let cached = try await fixture.execute(query, arguments, as: viewer)
            let fresh = try await fixture.execute(query, arguments, as: viewer, on: fixture.fresh)
            lists.append((String(decoding: cached.serialized(), as: UTF8.self), String(decoding: fresh.serialized(), as: UTF8.self)))
        }
        return lists
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func afterEveryRandomMutationAndClockMoveTheCachedListsEqualListsReadAfresh(seed: UInt64) async throws {
        let cache = ChoreViewCache(limits: ChoreViewCacheLimits())
        try await HouseholdsAPIFixture.with(instances: true, tokens: true, vacations: true, choreViews: cache) { fixture in
            let h = fixture.harness
            let instances = try #require(fixture.instances)
            let tokens = try #require(fixture.tokens)
            let vacations = try #require(fixture.vacations)
            var random = SeededRandom(seed: seed)
            let ana = try await fixture.person("ana")
            let ben = try await fixture.person("ben")
            let cleo = try await fixture.person("cleo")
            let (flat, anaMember) = try await fixture.household("Flat", by: ana)
            let benMember = try await fixture.join(flat, ben, as: "Ben")
            var cleoMember: String?
            let tag = try await h.chores.createTag(householdID: flat, name: "Kitchen", viewer: ana).tag
            var chores: [String] = []
            var completions: [String] = []
            var done: [(instance: String, by: Viewer)] = []
            var log: [String] = []
            var vacationsStarted = 0

            func members() -> [String] { [anaMember, benMember] + (cleoMember.map { [$0] } ?? []) }
            func viewers() -> [Viewer] { [ana, ben] + (cleoMember == nil ? [] : [cleo]) }
            func schedule() -> ChoreService.ScheduleRequest {
                let start = h.clock.now.addingTimeInterval(Double(random.int(-2...30)) * 3_600)
                switch random.int(0...2) {
                case 0: return .once(start)
                case 1:
                    let text = WallClock.Instant(start).iso8601.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
                    return .recurrence("DTSTART:\(text.prefix(15))Z\nRRULE:FREQ=\(random.pick(["DAILY", "WEEKLY"]));INTERVAL=\(random.int(1...3))")
                default: return .afterCompletion(every: random.int(1...4), unit: .days, firstDueAt: start)
                }
            }
            func createChore() async throws {
                if random.chance(0.2) {
                    let chore = try await h.chores.createChore(.init(householdID: nil, .init(title: "Mine \(chores.count)", schedule: schedule())), viewer: ben)
                    chores.append(chore.record.id)
                    return
                }
                let mode = random.pick([AssignmentMode.individual, .group, .allMembers, .singleAction])
                let assignees: [String] = switch mode {
                case .individual: [random.pick(members())]
                case .group: Array(Set([random.pick(members()), random.pick(members())])).sorted()
                case .allMembers: []
                case .singleAction: random.chance(0.5) ? [random.pick(members())] : []
                }
                let chore = try await h.chores.createChore(
                    .init(householdID: flat, .init(
                        title: "Chore \(chores.count)", assignmentMode: mode, assigneeIDs: assignees, schedule: schedule(),
                        steps: random.chance(0.3) ? [.init(title: "First"), .init(title: "Second")] : nil,
                        tagIDs: random.chance(0.5) ? [tag.id] : [], tokens: random.int(0...3), requiresApproval: random.chance(0.3),
                        completers: random.chance(0.3) ? PermissionRule(roles: [.member]) : nil)),
                    viewer: ana)
                chores.append(chore.record.id)
            }
            /// An instance id from `viewer`'s list, read afresh.
            func someInstance(of viewer: Viewer) async throws -> String? {
                let result = try await fixture.execute("{ myChores(first: 20) { edges { node { id } } } }", as: viewer, on: fixture.fresh)
                guard case .array(let edges)? = result.data?["myChores"]?["edges"], !edges.isEmpty else { return nil }
                guard case .string(let id)? = random.pick(edges)["node"]?["id"] else { return nil }
                return id
            }

            // `occurrences(after:)` from a fixed time: the same variables all along, so the lists stay
            // cached across clock moves unless something else changes them.
            let listedFrom = h.clock.now
            for step in 0..<80 {
                let viewer = random.pick(viewers())
                let action = random.int(0...15)
                log.append("\(step): \(action)")
                do {
                    switch action {
                    case 0, 1: try await createChore()
                    case 2:
                        if let chore = chores.randomElement(using: &random) {
                            _ = try await h.chores.updateChore(
                                id: chore, .init(title: "Renamed \(step)", tokens: random.int(0...5)), viewer: random.chance(0.8) ? ana : ben)
                        }
                    case 3:
                        if let chore = chores.randomElement(using: &random) { _ = try await h.chores.deleteChore(id: chore, viewer: random.chance(0.8) ? ana : ben) }
                    case 4, 5, 6:
                        if let instance = try await someInstance(of: viewer) {
                            let result = try await instances.completeChore(.init(instanceID: instance), viewer: viewer)
                            if let completion = result.completion { completions.append(completion.id) }
                            done.append((instance, viewer))
                        }
                    case 7:
                        if let completion = completions.randomElement(using: &random) {
                            if random.chance(0.5) {
                                _ = try await tokens.approveCompletion(id: completion, viewer: ana)
                            } else {
                                _ = try await tokens.rejectCompletion(id: completion, reason: "again", viewer: ana)
                            }
                        }
                    case 8:
                        if let instance = try await someInstance(of: viewer) { _ = try await instances.claimChore(instanceID: instance, viewer: viewer) }
                    case 9:
                        if let instance = try await someInstance(of: viewer) { _ = try await instances.releaseChore(instanceID: instance, viewer: viewer) }
                    case 10:
                        if let (instance, by) = done.popLast() { _ = try await instances.uncompleteChore(instanceID: instance, viewer: random.chance(0.5) ? by : ana) }
                    case 11:
                        if let member = cleoMember {
                            try await fixture.depart(.memberRemoved, flat, memberID: member, of: cleo)
                            cleoMember = nil
                        } else {
                            cleoMember = try await fixture.join(flat, cleo, as: "Cleo")
                        }
                    case 12:
                        if random.chance(0.5) {
                            _ = try await h.accounts.service.updateProfile(viewer: random.pick([ana, ben]), ProfileChange(displayName: "Name \(step)"))
                        } else {
                            _ = try await h.chores.updateTag(id: tag.id, name: "Tag \(step)", viewer: ana)
                        }
                    case 14:
                        // Vacation mode (another area's writes): paused or handed-over instances.
                        let member = random.pick([benMember] + (cleoMember.map { [$0] } ?? []))
                        _ = try await vacations.startVacation(
                            householdID: flat, memberIDs: [member], VacationRequest(handling: random.pick([.pause, .redistribute])), viewer: ana)
                        vacationsStarted += 1
                    case 15:
                        _ = try await vacations.endVacation(householdID: flat, memberIDs: [benMember] + (cleoMember.map { [$0] } ?? []), viewer: ana)
                    default:
                        h.clock.advance(seconds: Double(random.int(1...96)) * 3_600)
                    }
                } catch {
                    // Refused (not theirs to do, already done, …): the lists must still agree.
                }
                for viewer in [ana, ben, cleo] {
                    for (index, list) in try await Self.lists(fixture, viewer, household: flat, now: listedFrom).enumerated() {
                        #expect(list.cached == list.fresh, "seed \(seed), after \(log.suffix(3)), list \(index) as \(viewer.userID)")
                    }
                }
            }
            #expect(cache.statistics.hits > 100, "the lists were read from the cache where nothing changed")
            #expect(vacationsStarted > 0, "vacation mode's writes were among the mutations")
        }
    }

    @Test func aChangeByAnotherMemberIsVisibleOnTheNextRead() async throws {
        let cache = ChoreViewCache(limits: ChoreViewCacheLimits())
        try await HouseholdsAPIFixture.with(instances: true, choreViews: cache) { fixture in
            let h = fixture.harness
            let ana = try await fixture.person("ana")
            let ben = try await fixture.person("ben")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let benMember = try await fixture.join(flat, ben, as: "Ben")
            let chore = try await h.chores.createChore(
                .init(householdID: flat, .init(title: "Bins", assignmentMode: .individual, assigneeIDs: [benMember], schedule: .once(h.clock.now))),
                viewer: ana)
            let variables: [String: JSON] = ["id": .string(flat), "now": .string(WallClock.Instant(h.clock.now).iso8601)]
            func titles() async throws -> (household: JSON?, mine: JSON?) {
                let household = try await fixture.execute(Self.householdChores, variables, as: ben)
                let mine = try await fixture.execute(Self.myChores, as: ben)
                return (household.data?["householdChores"]?["edges"]?[0]?["node"]?["title"], mine.data?["myChores"]?["edges"]?[0]?["node"]?["chore"]?["title"])
            }
            #expect(try await titles() == (.string("Bins"), .string("Bins")))
            #expect(try await titles() == (.string("Bins"), .string("Bins")))
            #expect(cache.statistics.hits == 2, "the second reads were the kept lists")
            _ = try await h.chores.updateChore(id: chore.record.id, .init(title: "Recycling"), viewer: ana)
            #expect(try await titles() == (.string("Recycling"), .string("Recycling")))
            // A picture is the member's account's: changed outside the household, shown in its lists.
            let assignee = { try await fixture.execute(Self.householdChores, variables, as: ana).data?["householdChores"]?["edges"]?[0]?["node"]?["assignees"]?[0] }
            #expect(try await assignee()?["avatarUrl"] == .null)
            let avatar = try #require(try await h.accounts.service.setAvatar(viewer: ben, bytes: AccountsAPITests.png).avatarId)
            #expect(try await assignee()?["avatarUrl"] == .string(h.accounts.service.avatarURL(id: avatar)))
        }
    }

    /// Ana's household "Flat" with one chore, "Bins", due now, read through a kept-list cache.
    struct Flat {
        let fixture: HouseholdsAPIFixture
        let cache: ChoreViewCache
        let ana: Viewer
        let id: String
        let choreID: String
        /// The variables of `householdChores` for the flat, now.
        let variables: [String: JSON]

        /// Calls `body` with a fresh flat.
        static func with(_ body: (Flat) async throws -> Void) async throws {
            let cache = ChoreViewCache(limits: ChoreViewCacheLimits())
            try await HouseholdsAPIFixture.with(instances: true, choreViews: cache) { fixture in
                let h = fixture.harness
                let ana = try await fixture.person("ana")
                let (flat, _) = try await fixture.household("Flat", by: ana)
                let chore = try await h.chores.createChore(.init(householdID: flat, .init(title: "Bins", schedule: .once(h.clock.now))), viewer: ana)
                try await body(Flat(
                    fixture: fixture, cache: cache, ana: ana, id: flat, choreID: chore.record.id,
                    variables: ["id": .string(flat), "now": .string(WallClock.Instant(h.clock.now).iso8601)]))
            }
        }

        /// `householdChores` of the flat as Ana reads it (`query`: another selection of it).
        func householdChores(_ query: String = ChoreViewCacheTests.householdChores) async throws -> ExecutionResult {
            try await fixture.execute(query, variables, as: ana)
        }

        /// The title of the list's first chore.
        func firstTitle() async throws -> JSON? {
            try await householdChores().data?["householdChores"]?["edges"]?[0]?["node"]?["title"]
        }

        /// Renames the chore, as Ana.
        func rename(to title: String) async throws {
            _ = try await fixture.harness.chores.updateChore(id: choreID, .init(title: title), viewer: ana)
        }
    }

    /// A kept list asked for alone is a response made of one kept value: the transport keeps the
    /// response's body and compressed encoding with it (`ReusableBody`), so the same value must come
    /// back while the list is unchanged, and a new one once it changed.
    @Test func aKeptListAskedForAloneIsTheSameFramedValueUntilItChanges() async throws {
        try await Flat.with { flat in
            let built = try await flat.householdChores()
            #expect(built.framedValue == nil, "a list built afresh is completed by the executor, not kept text")
            let kept = try #require(try await flat.householdChores().framedValue)
            #expect(kept.framing.prefix == Array(#"{"householdChores":"#.utf8) && kept.framing.suffix == Array("}".utf8))
            #expect(try #require(try await flat.householdChores().framedValue).value === kept.value)
            let withAnotherField = try await flat.householdChores(
                Self.householdChores.replacingOccurrences(of: "householdChores(", with: "me { id } householdChores("))
            #expect(withAnotherField.framedValue == nil)
            try await flat.rename(to: "Recycling")
            _ = try await flat.householdChores()
            let rebuilt = try #require(try await flat.householdChores().framedValue)
            #expect(rebuilt.value !== kept.value)
            #expect(String(decoding: rebuilt.value.bytes, as: UTF8.self).contains("Recycling"))
        }
    }

    @Test func aListLosesAViewerWhoLeftTheHouseholdAtOnce() async throws {
        try await HouseholdsAPIFixture.with(instances: true, choreViews: ChoreViewCache(limits: ChoreViewCacheLimits())) { fixture in
            let ana = try await fixture.person("ana")
            let ben = try await fixture.person("ben")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let benMember = try await fixture.join(flat, ben, as: "Ben")
            let variables: [String: JSON] = ["id": .string(flat), "now": .string(WallClock.Instant(fixture.harness.clock.now).iso8601)]
            #expect(try await fixture.execute(Self.householdChores, variables, as: ben).errors.isEmpty)
            try await fixture.depart(.memberLeft, flat, memberID: benMember, of: ben)
            let after = try await fixture.execute(Self.householdChores, variables, as: ben)
            #expect(after.errors.first?.extensions["code"] == "NOT_FOUND")
        }
    }

    @Test func anInstanceComingWithinTheHorizonAppearsWithoutAWrite() async throws {
        try await HouseholdsAPIFixture.with(instances: true, choreViews: ChoreViewCache(limits: ChoreViewCacheLimits())) { fixture in
            let h = fixture.harness
            let ben = try await fixture.person("ben")
            // Due in 20 days; myChores shows what is due within the 14-day horizon.
            _ = try await h.chores.createChore(.init(householdID: nil, .init(title: "Passport", schedule: .once(h.clock.now.addingTimeInterval(20 * 86_400)))), viewer: ben)
            func count() async throws -> Int {
                guard case .array(let edges)? = try await fixture.execute(Self.myChores, as: ben).data?["myChores"]?["edges"] else { return -1 }
                return edges.count
            }
            #expect(try await count() == 0)
            h.clock.advance(seconds: 5 * 86_400)
            #expect(try await count() == 0)
            h.clock.advance(seconds: 1 * 86_400)
            #expect(try await count() == 1)
        }
    }

    /// While nothing commits, a kept list costs one statement, the store's change mark: no stamp,
    /// no access check read. A commit anywhere (here another household's) sends the next read to
    /// the stamp, which finds the list unchanged and keeps it; a commit to the list's household
    /// rebuilds it.
    @Test(.enabled(if: TestDatabaseStore.isSQLite, "SQLite's change mark (PostgreSQL gives none)"))
    func aKeptListCostsOneStatementWhileNothingCommits() async throws {
        try await Flat.with { flat in
            let h = flat.fixture.harness
            let ben = try await flat.fixture.person("ben")
            _ = try await flat.fixture.household("Elsewhere", by: ben)
            func read() async throws -> (title: JSON?, statements: Int) {
                let before = try StoreStatistics.statements(of: h.pool)
                let title = try await flat.firstTitle()
                return (title, try StoreStatistics.statements(of: h.pool) - before)
            }
            // Built, then each reader's first look at the store's data version.
            for _ in 0..<6 { #expect(try await read().title == .string("Bins")) }
            for _ in 0..<5 {
                let kept = try await read()
                #expect(kept.title == .string("Bins") && kept.statements == 1, "the change mark alone")
            }
            _ = try await h.chores.createChore(.init(householdID: nil, .init(title: "Passport", schedule: .once(h.clock.now))), viewer: ben)
            let hits = flat.cache.statistics.hits
            let afterOtherCommit = try await read()
            #expect(afterOtherCommit.title == .string("Bins") && afterOtherCommit.statements > 1, "the stamp was read")
            #expect(flat.cache.statistics.hits == hits + 1, "and found the kept list current")
            try await flat.rename(to: "Recycling")
            #expect(try await read().title == .string("Recycling"))
        }
    }

    /// Another process writing the database (`hearth admin`, a second server during a rolling
    /// restart; here Python's `sqlite3`) moves the change mark too: its change, recorded on the
    /// household's topic as every write must, is in the next read.
    @Test(.enabled(if: TestDatabaseStore.isSQLite, "a second process on SQLite's file"))
    func aChangeCommittedByAnotherProcessIsVisibleOnTheNextRead() async throws {
        try await Flat.with { flat in
            for _ in 0..<6 { #expect(try await flat.firstTitle() == .string("Bins")) }
            let hits = flat.cache.statistics.hits
            #expect(try await flat.firstTitle() == .string("Bins"))
            #expect(flat.cache.statistics.hits == hits + 1)
            _ = try TestPython.runScript(
                """
                import sqlite3, sys
                c = sqlite3.connect(sys.argv[1])
                c.execute("UPDATE chores SET title = 'Recycling' WHERE id = ?", (sys.argv[2],))
                c.execute("INSERT INTO change_log (topic, kind, payload, committed_at, objects) "
                          "SELECT ?, 'chore.updated', '{}', committed_at, '[]' FROM change_log ORDER BY sequence DESC LIMIT 1", (sys.argv[3],))
                c.commit()
                """, [try StoreStatistics.sqlitePool(flat.fixture.harness.pool).path, flat.choreID, Topic.household(flat.id).key])
            #expect(try await flat.firstTitle() == .string("Recycling"))
        }
    }

    @Test func theEntryLimitHoldsThatManyListsAndEvictsTheLeastRecentlyUsed() async throws {
        let cache = ChoreViewCache(limits: ChoreViewCacheLimits(entries: 2))
        try await HouseholdsAPIFixture.with(instances: true, choreViews: cache) { fixture in
            let ana = try await fixture.person("ana")
            _ = try await fixture.household("Flat", by: ana)
            let queries = ["{ personalChores(first: 5) { edges { node { id } } } }", "{ personalChores(first: 6) { edges { node { id } } } }"]
            for query in queries + queries { _ = try await fixture.execute(query, as: ana) }
            #expect(cache.statistics.hits == 2 && cache.statistics.count == 2 && cache.statistics.evictions == 0)
            _ = try await fixture.execute("{ personalChores(first: 7) { edges { node { id } } } }", as: ana)
            #expect(cache.statistics.evictions == 1 && cache.statistics.count == 2)
            _ = try await fixture.execute(queries[0], as: ana)
            #expect(cache.statistics.hits == 2, "the least recently used list was evicted")
        }
    }

    @Test func theByteLimitHoldsAListOfExactlyThatSizeAndNotOneByteMore() async throws {
        let query = "{ personalChores(first: 5) { edges { node { id title } } } }"
        func cost(of limits: ChoreViewCacheLimits) async throws -> ChoreViewCache {
            let cache = ChoreViewCache(limits: limits)
            try await HouseholdsAPIFixture.with(instances: true, choreViews: cache) { fixture in
                let ana = try await fixture.person("ana")
                _ = try await fixture.household("Flat", by: ana)
                _ = try await fixture.harness.chores.createChore(.init(householdID: nil, .init(title: "Passport", schedule: .once(fixture.harness.clock.now))), viewer: ana)
                _ = try await fixture.execute(query, as: ana)
                _ = try await fixture.execute(query, as: ana)
            }
            return cache
        }
        let size = try await cost(of: ChoreViewCacheLimits()).statistics.cost
        #expect(size > 512)
        let atTheLimit = try await cost(of: ChoreViewCacheLimits(bytes: size))
        #expect(atTheLimit.statistics.hits == 1 && atTheLimit.statistics.cost == size)
        let pastTheLimit = try await cost(of: ChoreViewCacheLimits(bytes: size - 1))
        #expect(pastTheLimit.statistics.hits == 0 && pastTheLimit.statistics.count == 0)
    }

    @Test func aZeroLimitReadsEveryListAfresh() async throws {
        for limits in [ChoreViewCacheLimits(entries: 0), ChoreViewCacheLimits(bytes: 0)] {
            let cache = ChoreViewCache(limits: limits)
            try await HouseholdsAPIFixture.with(instances: true, choreViews: cache) { fixture in
                let ana = try await fixture.person("ana")
                for _ in 0..<2 { _ = try await fixture.execute(Self.personalChores, as: ana) }
            }
            #expect(cache.statistics.hits == 0 && cache.statistics.count == 0)
        }
    }
}
