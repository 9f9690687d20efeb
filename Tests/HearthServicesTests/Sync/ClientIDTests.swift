import FoundationEssentials
import HearthDomain
@testable import HearthServices
import HearthStore
import TestFixtures
import Testing

/// Ids clients make offline (``ClientIDs``): kept, answered with the first object on a retry (even
/// once the replay record is gone), refused when malformed, of another type, someone else's, or of
/// a deleted object; an event may name a habit made offline; a queued photo is stored once.
@Suite struct ClientIDTests {
    private static let draft = HabitDraft(title: "Run", reason: nil, startsOn: CalendarDay("2026-09-01")!, plan: [.monday])

    private static func with(_ body: (HouseholdsHarness, HabitService) async throws -> Void) async throws {
        try await HouseholdsHarness.with { harness in
            try await body(harness, HabitService(configuration: HabitsConfiguration(), households: harness.service))
        }
    }

    /// Ana with a habit she made with the client id `hab_<uuid(number)>`, and Ben, who would like that id too.
    private static func withAnasHabit(
        _ number: Int, _ body: (HouseholdsHarness, HabitService, _ ana: Viewer, _ ben: Viewer, _ id: String) async throws -> Void
    ) async throws {
        try await with { harness, habits in
            let ana = try await harness.confirmedViewer("ana")
            let ben = try await harness.confirmedViewer("ben")
            let id = "hab_" + uuid(number)
            _ = try await habits.createHabit(draft(id: id), viewer: ana)
            try await body(harness, habits, ana, ben, id)
        }
    }

    private static func uuid(_ last: Int) -> String {
        "0190aaaa-0000-7000-8000-" + String(String(last, radix: 16).reversed()).padding(toLength: 12, withPad: "0", startingAt: 0)
    }

    private static func count(_ harness: HouseholdsHarness, _ sql: String) throws -> Int {
        try harness.pool.read { try $0.scalar(Int.self, sql) ?? 0 }
    }

    private static func draft(id: String) -> HabitDraft {
        var draft = Self.draft
        draft.id = id
        return draft
    }

    @Test func aHabitKeepsTheIDItsClientMadeAndARetryGetsTheFirstHabitBack() async throws {
        try await Self.with { harness, habits in
            let ana = try await harness.confirmedViewer("ana")
            let id = "hab_" + Self.uuid(1)
            #expect(try await habits.createHabit(Self.draft(id: id), viewer: ana, clientMutationID: "q-1").id == id)
            var changed = Self.draft(id: id)
            changed.title = "Swim"
            // Another clientMutationId, none, and after the replay records are pruned: the first habit, unchanged.
            #expect(try await habits.createHabit(changed, viewer: ana, clientMutationID: "q-2").title == "Run")
            #expect(try await habits.createHabit(changed, viewer: ana).title == "Run")
            try await harness.pool.write { try $0.execute("DELETE FROM mutation_replays") }
            #expect(try await habits.createHabit(changed, viewer: ana, clientMutationID: "q-1").title == "Run")
            #expect(try Self.count(harness, "SELECT count(*) FROM habits") == 1)
            #expect(try Self.count(harness, "SELECT count(*) FROM change_log WHERE kind = 'habit.created'") == 1)
        }
    }

    @Test func aMalformedIDIsBadInputAndOneOfAnotherTypeIsTaken() async throws {
        try await Self.with { harness, habits in
            let ana = try await harness.confirmedViewer("ana")
            for malformed in [Self.uuid(2), "hab_" + Self.uuid(2).uppercased(), "hab_{\(Self.uuid(2))}", "hab_", "xyz_" + Self.uuid(2)] {
                let refusal = await harness.refusal { try await habits.createHabit(Self.draft(id: malformed), viewer: ana) }
                #expect(refusal?.code == .badUserInput && refusal?.problems.map(\.field) == ["input.id"], "\(malformed)")
                #expect(refusal?.problems.first?.reason == .invalidFormat, "\(malformed)")
            }
            for otherType in ["chr_" + Self.uuid(3), "usr_" + Self.uuid(3), "hev_" + Self.uuid(3)] {
                let refusal = await harness.refusal { try await habits.createHabit(Self.draft(id: otherType), viewer: ana) }
                #expect(refusal?.code == .badUserInput && refusal?.problems.first?.reason == .idTaken, "\(otherType)")
            }
            #expect(try Self.count(harness, "SELECT count(*) FROM habits") == 0)
            #expect(try Self.count(harness, "SELECT count(*) FROM client_ids") == 0, "a refusal registers nothing")
        }
    }

    @Test func anIDAnotherUserTookIsTakenWithoutSayingWhose() async throws {
        try await Self.withAnasHabit(4) { harness, habits, ana, ben, id in
            let refusal = await harness.refusal { try await habits.createHabit(Self.draft(id: id), viewer: ben) }
            #expect(refusal?.code == .badUserInput && refusal?.problems.first?.reason == .idTaken)
            let said = (refusal?.message ?? "") + (refusal?.problems.map(\.message).joined() ?? "")
            #expect(!said.contains("ana") && !said.contains("Run") && !said.contains(ana.userID), "\(said)")
            // A server-made id of someone else's object is taken just the same.
            let made = try await habits.createHabit(Self.draft, viewer: ana).id
            let serverMade = await harness.refusal { try await habits.createHabit(Self.draft(id: made), viewer: ben) }
            #expect(serverMade?.problems.first?.reason == .idTaken)
            #expect(try Self.count(harness, "SELECT count(*) FROM habits") == 2)
        }
    }

    @Test func aDeletedObjectIsNeverMadeAgainDeletedForItsMakerTakenForOthers() async throws {
        try await Self.withAnasHabit(5) { harness, habits, ana, ben, id in
            _ = try await habits.deleteHabit(id: id, viewer: ana)
            let again = await harness.refusal { try await habits.createHabit(Self.draft(id: id), viewer: ana, clientMutationID: "new") }
            #expect(again?.code == .notFound && again?.reason == .deleted)
            let other = await harness.refusal { try await habits.createHabit(Self.draft(id: id), viewer: ben) }
            #expect(other?.code == .badUserInput && other?.problems.first?.reason == .idTaken)
            #expect(try Self.count(harness, "SELECT count(*) FROM habits") == 0)
        }
    }

    @Test func anEventNamesAHabitMadeOfflineAndItsQueuedPhotoIsStoredOnce() async throws {
        try await Self.with { harness, habits in
            let ana = try await harness.confirmedViewer("ana")
            let habitID = "hab_" + Self.uuid(6)
            let eventID = "hev_" + Self.uuid(6)
            // The queue as a phone sends it: the habit, then an event of it with a photo, then the same upload again.
            _ = try await habits.createHabit(Self.draft(id: habitID), viewer: ana, clientMutationID: "q-1")
            let event = HabitEventDraft(habitID: habitID, comment: "park", photo: HabitServiceTests.png, id: eventID)
            let first = try await habits.recordHabitEvent(event, viewer: ana, clientMutationID: "q-2")
            #expect(first.id == eventID && first.habitID == habitID && first.photo != nil)
            let retried = try await habits.recordHabitEvent(event, viewer: ana, clientMutationID: "q-2-retry")
            #expect(retried.id == eventID && retried.photo?.id == first.photo?.id)
            #expect(try Self.count(harness, "SELECT count(*) FROM habit_events") == 1)
            #expect(try Self.count(harness, "SELECT count(*) FROM habit_photos") == 1)
        }
    }

    /// Every create that takes a client id follows the same rules: one registry, one check.
    @Test func everyCreateKeepsItsIDAndRefusesAnotherUsersAndATakenOne() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            // Ben, a second admin, may make everything Ana may: only the id stops him.
            try await h.pool.write { try $0.execute("UPDATE members SET role = 'admin' WHERE id = ?", [f.memberID]) }
            let tokens = TokenService(
                configuration: TokensConfiguration(),
                instances: ChoreInstanceService(configuration: InstancesConfiguration(), chores: h.chores, jobs: JobQueue(pool: h.pool, clock: h.clock)))
            let follows = FollowService(configuration: FollowingConfiguration(), households: h.service)
            let chore = try await h.chore("Dishes", in: f.householdID, by: f.admin)
            let creates: [(GlobalID.Kind, (String, Viewer) async throws -> String)] = [
                (.household, { id, viewer in try await h.service.createHousehold(.init(name: "Home", id: id), viewer: viewer).household.id }),
                (.member, { id, viewer in
                    try await h.service.addMember(householdID: f.householdID, .init(kind: .child, displayName: "Tom", age: 15, id: id), viewer: viewer).member.id
                }),
                (.chore, { id, viewer in try await h.chore("Bins", in: f.householdID, by: viewer, id: id).id }),
                (.tag, { id, viewer in try await h.chores.createTag(householdID: f.householdID, name: "Kitchen", id: id, viewer: viewer).tag.id }),
                (.chorePreset, { id, viewer in try await h.chores.saveChorePreset(choreID: chore.id, title: "Dishes", id: id, viewer: viewer).id }),
                (.reward, { id, viewer in
                    try await tokens.createReward(householdID: f.householdID, RewardDraft(name: "Ice cream", tokenCost: 5), id: id, viewer: viewer).reward.id
                }),
                (.follow, { id, viewer in try await follows.requestFollow(username: "eve", id: id, viewer: viewer).id }),
            ]
            for (index, (kind, create)) in creates.enumerated() {
                let id = "\(kind.rawValue)_" + Self.uuid(100 + index)
                #expect(try await create(id, f.admin) == id, "\(kind)")
                #expect(try await create(id, f.admin) == id, "the same again answers the first \(kind)")
                let other = await h.refusal { try await create(id, f.member) }
                #expect(other?.code == .badUserInput && other?.problems.first?.reason == .idTaken, "\(kind): \(String(describing: other))")
                let wrongType = await h.refusal { try await create("hab_" + Self.uuid(200 + index), f.admin) }
                #expect(wrongType?.problems.first?.reason == .idTaken, "\(kind)")
            }
            #expect(try Self.count(h, "SELECT count(*) FROM households WHERE name = 'Home'") == 1)
            #expect(try Self.count(h, "SELECT count(*) FROM members WHERE display_name = 'Tom'") == 1)
            #expect(try Self.count(h, "SELECT count(*) FROM chores WHERE title = 'Bins'") == 1)
            #expect(try Self.count(h, "SELECT count(*) FROM tags WHERE name = 'Kitchen'") == 1)
            #expect(try Self.count(h, "SELECT count(*) FROM chore_presets") == 1)
            #expect(try Self.count(h, "SELECT count(*) FROM rewards") == 1)
            #expect(try Self.count(h, "SELECT count(*) FROM follows") == 1)
        }
    }
}
