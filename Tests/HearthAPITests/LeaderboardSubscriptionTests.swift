import Foundation
import GraphQL
import HearthAPI
import HearthDomain
import HearthServices
import HearthStore
import Support
import TestFixtures
import Testing

/// `leaderboardChanged` (FR-58): a completion pushes the new board to every subscribed member, computed
/// once for all of them (not once per subscriber), and a member whose membership ends stops at once.
@Suite struct LeaderboardSubscriptionTests {
    static let subscription = """
        subscription($id: ID!) {
          leaderboardChanged(householdId: $id) { totalCompletions entries { member { displayName isViewer } rank completionCount tokens } }
        }
        """

    /// The full service stack (chore instances, tokens, leaderboards) over `fixture`'s harness, and its GraphQL service.
    private struct Stack {
        let instances: ChoreInstanceService
        let service: GraphQLService

        init(_ fixture: HouseholdsAPIFixture) throws {
            let harness = fixture.harness
            instances = ChoreInstanceService(
                configuration: InstancesConfiguration(), chores: harness.chores, jobs: JobQueue(pool: harness.pool, clock: harness.clock))
            let tokens = TokenService(configuration: TokensConfiguration(), instances: instances)
            service = try HearthSchema.service(
                sdl: HouseholdsAPIFixture.sdl, serverInfo: ServerInfo(version: "test", startedAt: WallClock.Instant(seconds: 0)),
                events: harness.bus, accounts: harness.accounts.service, households: harness.service, chores: harness.chores,
                instances: instances, tokens: tokens, leaderboards: LeaderboardService(tokens: tokens), limits: GraphQLLimits(), logger: .disabled)
        }

        /// The board stream of `householdID` for `viewer`.
        func boards(_ householdID: String, as viewer: Viewer) async throws -> MaskedResponseStream.AsyncIterator {
            let outcome = await service.operate(
                GraphQLRequest(query: LeaderboardSubscriptionTests.subscription, variables: ["id": .string(householdID)]), requestID: "r",
                context: RequestContext(authentication: .signedIn(viewer), clientAddress: "127.0.0.1"))
            guard case .stream(let stream) = outcome else { throw GraphQLError(message: "the subscription was refused") }
            return stream.makeAsyncIterator()
        }

        /// A one-off chore of `householdID` by `admin` worth 2 tokens that anyone may complete, and its instance.
        func chore(_ title: String, in householdID: String, by admin: Viewer, _ harness: HouseholdsHarness) async throws -> String {
            let due = harness.clock.now.addingTimeInterval(3600)
            let chore = try await harness.chores.createChore(
                .init(householdID: householdID, ChoreFields(title: title, assignmentMode: .singleAction, schedule: .once(due), tokens: 2)),
                viewer: admin
            ).record
            return ChoreInstanceID.make(choreID: chore.id, occurrence: due, memberID: nil).rawValue
        }
    }

    /// Statements the pool ran in `body`.
    private func statements(_ store: any DatabaseWriter, _ body: () async throws -> Void) async throws -> Int {
        let before = try StoreStatistics.statements(of: store)
        try await body()
        return try StoreStatistics.statements(of: store) - before
    }

    @Test func aCompletionReachesEveryMembersBoardForTheSameStatementsWithOneSubscriberAsWithSeven() async throws {
        try await HouseholdsAPIFixture.with(readerCount: 1) { fixture in
            let stack = try Stack(fixture)
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            var others: [Viewer] = []
            for name in ["bruno", "carla", "duarte", "eva", "filipe", "gil"] {
                let person = try await fixture.person(name)
                _ = try await fixture.join(flat, person, as: name.capitalized)
                others.append(person)
            }
            let warmUp = try await stack.chore("Laundry", in: flat, by: ana, fixture.harness)
            let first = try await stack.chore("Dishes", in: flat, by: ana, fixture.harness)
            let second = try await stack.chore("Bins", in: flat, by: ana, fixture.harness)

            var anasBoards = try await stack.boards(flat, as: ana)
            // The household's first completion also records its activation: not part of what is compared.
            _ = try await stack.instances.completeChore(.init(instanceID: warmUp), viewer: others[1])
            _ = try #require(try await anasBoards.next())
            let alone = try await statements(fixture.harness.pool) {
                _ = try await stack.instances.completeChore(.init(instanceID: first), viewer: ana)
                let board = try #require(try await anasBoards.next()).data?["leaderboardChanged"]
                #expect(board?["totalCompletions"] == 2)
            }
            var boards: [MaskedResponseStream.AsyncIterator] = []
            for person in others { boards.append(try await stack.boards(flat, as: person)) }
            let together = try await statements(fixture.harness.pool) {
                _ = try await stack.instances.completeChore(.init(instanceID: second), viewer: others[0])
                let board = try #require(try await anasBoards.next()).data?["leaderboardChanged"]
                #expect(board?["totalCompletions"] == 3)
                for index in boards.indices {
                    let seen = try #require(try await boards[index].next()).data?["leaderboardChanged"]
                    // Everyone sees the same ranking (Ana, Bruno and Carla tied first), each as themselves.
                    #expect(seen?["totalCompletions"] == 3 && seen?["entries"]?[0]?["rank"] == 1 && seen?["entries"]?[2]?["rank"] == 1)
                    #expect(seen?["entries"]?[3]?["rank"] == 4 && seen?["entries"]?[3]?["completionCount"] == 0)
                    guard case .array(let entries)? = seen?["entries"] else { Issue.record("no entries"); continue }
                    let mine = entries.filter { $0["member"]?["isViewer"] == true }
                    #expect(mine.count == 1 && mine.first?["member"]?["displayName"] == .string(["Bruno", "Carla", "Duarte", "Eva", "Filipe", "Gil"][index]))
                }
            }
            #expect(alone == together, "one board computation per change, whatever the number of subscribers")
        }
    }

    @Test func aMemberWhoLeavesStopsReceivingAtOnceWhileTheOthersSeeThemLeaveTheBoard() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let stack = try Stack(fixture)
            let ana = try await fixture.person("ana")
            let bruno = try await fixture.person("bruno")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let brunoMember = try await fixture.join(flat, bruno, as: "Bruno")
            var anasBoards = try await stack.boards(flat, as: ana)
            var brunosBoards = try await stack.boards(flat, as: bruno)
            try await fixture.depart(.memberLeft, flat, memberID: brunoMember, of: bruno)
            #expect(try await brunosBoards.next() == nil)
            let board = try #require(try await anasBoards.next()).data?["leaderboardChanged"]
            #expect(board?["entries"] == [["member": ["displayName": "ana", "isViewer": true], "rank": 1, "completionCount": 0, "tokens": 0]])
        }
    }

    @Test func outsidersCannotSubscribe() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let stack = try Stack(fixture)
            let ana = try await fixture.person("ana")
            let eve = try await fixture.person("eve")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            await #expect(throws: GraphQLError.self) { _ = try await stack.boards(flat, as: eve) }
            let outcome = await stack.service.operate(
                GraphQLRequest(query: Self.subscription, variables: ["id": .string(flat)]), requestID: "r",
                context: RequestContext(authentication: .signedIn(eve), clientAddress: "127.0.0.1"))
            guard case .single(let refused) = outcome else { Issue.record("an outsider's subscription was admitted"); return }
            #expect(refused.result.errors.first?.extensions["code"] == "NOT_FOUND")
        }
    }
}
