import FoundationEssentials
import HearthDomain
@testable import HearthServices
import HearthStore
import TestFixtures
import Testing

/// The conflict policy's deletes and completions: a change of a deleted object answers `NOT_FOUND`
/// with reason `DELETED` to whoever could see it and plain `NOT_FOUND` to anyone else (cascaded
/// deletes included); a completion of an instance someone completed first answers that completion;
/// tombstones go after their horizon with the client ids of what they buried.
@Suite struct DeletesWinTests {
    private static let draft = HabitDraft(title: "Run", reason: nil, startsOn: CalendarDay("2026-09-01")!, plan: [.monday])

    @Test func anEditOfADeletedHabitIsDeletedForItsOwnerAndNotFoundForOthers() async throws {
        try await HouseholdsHarness.with { h in
            let habits = HabitService(configuration: HabitsConfiguration(), households: h.service)
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let habit = try await habits.createHabit(Self.draft, viewer: ana)
            let event = try await habits.recordHabitEvent(HabitEventDraft(habitID: habit.id), viewer: ana)
            let before = await h.refusal { try await habits.updateHabit(id: habit.id, HabitChanges(title: "Swim"), viewer: ben) }
            _ = try await habits.deleteHabit(id: habit.id, viewer: ana)
            // Another device's queue, replayed after the delete: every change of the habit or its events.
            let refusals = [
                await h.refusal { try await habits.updateHabit(id: habit.id, HabitChanges(title: "Swim"), viewer: ana) },
                await h.refusal { try await habits.deleteHabit(id: habit.id, viewer: ana) },
                await h.refusal { try await habits.recordHabitEvent(HabitEventDraft(habitID: habit.id), viewer: ana) },
                await h.refusal { try await habits.updateHabitEvent(id: event.id, HabitEventChanges(comment: "x"), viewer: ana) },
                await h.refusal { try await habits.deleteHabitEvent(id: event.id, viewer: ana) },
            ]
            #expect(refusals.map { $0?.code } == Array(repeating: .notFound, count: 5))
            #expect(refusals.map { $0?.reason } == Array(repeating: .deleted, count: 5), "the cascaded event too")
            let stranger = await h.refusal { try await habits.updateHabit(id: habit.id, HabitChanges(title: "Swim"), viewer: ben) }
            #expect(stranger == before && stranger?.reason == nil, "existence does not leak")
        }
    }

    @Test func aDeletedHouseholdsObjectsAreDeletedForItsPeopleAndNotFoundForOthers() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let chore = try await h.chore("Dishes", in: f.householdID, by: f.admin)
            let tag = try await h.chores.createTag(householdID: f.householdID, name: "Kitchen", viewer: f.admin).tag
            _ = try await h.service.deleteHousehold(id: f.householdID, confirmName: "Flat", viewer: f.admin)
            for viewer in [f.admin, f.member] {
                let edit = await h.refusal { try await h.chores.updateChore(id: chore.id, ChoreFields(title: "Bins"), viewer: viewer) }
                #expect(edit?.code == .notFound && edit?.reason == .deleted)
            }
            let renamed = await h.refusal { try await h.chores.updateTag(id: tag.id, name: "Bath", viewer: f.admin) }
            #expect(renamed?.reason == .deleted)
            let outsider = await h.refusal { try await h.chores.updateChore(id: chore.id, ChoreFields(title: "Bins"), viewer: f.outsider) }
            #expect(outsider?.code == .notFound && outsider?.reason == nil)
            let buried = try await h.pool.read { database in
                try database.query("SELECT kind FROM tombstones WHERE scope = ? ORDER BY kind", ["household:" + f.householdID]).map { try $0["kind"] as String }
            }
            #expect(Set(buried) == ["hh", "mem", "chr", "tag"] && buried.filter { $0 == "mem" }.count == 3, "\(buried)")
        }
    }

    @Test func aCompletionOfADeletedChoreIsDeletedAndOneCompletedFirstAnswersTheFirst() async throws {
        try await InstancesHarness.with { harness in
            let f = try await harness.households.choreFamily()
            let due = harness.clock.now.addingTimeInterval(3600)
            let done = try await harness.households.chore("Dishes", in: f.householdID, by: f.admin) { $0.schedule = .once(due) }
            let first = try await harness.complete(harness.instanceID(done, at: due), as: f.admin)
            let second = try await harness.complete(harness.instanceID(done, at: due), as: f.member)
            #expect(first.outcome == .completed && second.outcome == .alreadyCompleted)
            #expect(second.completion?.id == first.completion?.id, "the completion made first")
            let gone = try await harness.households.chore("Bins", in: f.householdID, by: f.admin) { $0.schedule = .once(due) }
            _ = try await harness.runDueJobs()
            _ = try await harness.chores.deleteChore(id: gone.id, viewer: f.admin)
            let late = await harness.households.refusal { try await harness.complete(harness.instanceID(gone, at: due), as: f.member) }
            #expect(late?.code == .notFound && late?.reason == .deleted)
        }
    }

    @Test func tombstonesAndTheClientIDsTheyBuryGoAfterTheirHorizon() async throws {
        try await HouseholdsHarness.with { h in
            let habits = HabitService(configuration: HabitsConfiguration(), households: h.service)
            let ana = try await h.confirmedViewer("ana")
            var draft = Self.draft
            draft.id = "hab_0190aaaa-0000-7000-8000-00000000beef"
            let kept = try await habits.createHabit(Self.draft, viewer: ana)
            _ = try await habits.createHabit(draft, viewer: ana)
            _ = try await habits.deleteHabit(id: draft.id!, viewer: ana)
            var policy = RetentionPolicy()
            for subject in RetentionPolicy.Subject.allCases { policy[subject] = .seconds(86_400) }
            let retention = RetentionJob(
                policy: policy, jobs: JobQueue(pool: h.pool, clock: h.clock), changeLog: ChangeLog(pool: h.pool, bus: h.bus, clock: h.clock),
                logger: .disabled)
            h.clock.advance(seconds: 86_400)
            #expect(try retention.prune(at: h.clock.now)[.tombstones] == 0, "kept up to the horizon")
            h.clock.advance(seconds: 0.001)
            #expect(try retention.prune(at: h.clock.now)[.tombstones] == 1)
            let left = try await h.pool.read { database in
                (try database.scalar(Int.self, "SELECT count(*) FROM tombstones"), try database.scalar(Int.self, "SELECT count(*) FROM client_ids"))
            }
            #expect(left.0 == 0 && left.1 == 0)
            #expect(try await habits.habit(id: kept.id, viewer: ana).title == "Run", "live objects stay")
        }
    }
}
