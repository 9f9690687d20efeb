import FoundationEssentials
import HearthDomain
@testable import HearthServices
import Support
import Testing
import TestFixtures

/// Planning (issue 14, "Instances"): instances are written up to the horizon by the scheduler,
/// idempotently; later ones are computed when read; edits, members joining and leaving, and
/// deletion recalculate what has not started.
@Suite struct InstancePlanningTests {
    private static let day: Double = 86_400

    @Test func anOccurrenceExactlyAtTheHorizonIsStoredAndOneASecondLaterIsNot() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let now = harness.clock.now
            // Daily at "now": day 14 is exactly at the 14-day horizon.
            let atEdge = try await harness.households.chore("At the edge", in: family.householdID, by: family.admin) {
                $0.schedule = .recurrence("DTSTART:\(InstancesHarness.icalendar(now))Z\nRRULE:FREQ=DAILY")
            }
            // Daily a second later: day 14 is one second past it.
            let pastEdge = try await harness.households.chore("Past the edge", in: family.householdID, by: family.admin) {
                $0.schedule = .recurrence("DTSTART:\(InstancesHarness.icalendar(now.addingTimeInterval(1)))Z\nRRULE:FREQ=DAILY")
            }
            #expect(try harness.storedCount(of: atEdge.id) == 15)
            #expect(try harness.storedCount(of: pastEdge.id) == 14)
            // The next run is due when day 14 of the later chore comes within the horizon.
            #expect(try harness.planJobs().contains { $0.hasPrefix(WallClock.Instant(now.addingTimeInterval(1)).iso8601.prefix(19)) })
            try await harness.advance(seconds: 1)
            #expect(try harness.storedCount(of: pastEdge.id) == 15)
        }
    }

    @Test func theHorizonIsConfigurable() async throws {
        try await InstancesHarness.with(configure: { $0.horizon = .seconds(3 * 86_400) }) { harness in
            let family = try await harness.households.choreFamily()
            let chore = try await harness.households.chore("Short", in: family.householdID, by: family.admin) { $0.schedule = harness.daily() }
            #expect(try harness.storedCount(of: chore.id) == 3)
        }
    }

    @Test func planningAgainWritesNothingNewAndTheScheduledRunsAddOneDayAtATime() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let chore = try await harness.households.chore("Dishes", in: family.householdID, by: family.admin) { $0.schedule = harness.daily() }
            let before = try harness.storedInstances(of: chore.id)
            let outcome = try await harness.pool.write { database in
                let scope = try #require(try ChoreAccess.scheduled(choreID: chore.id, in: database)).scope(database)
                return try harness.instances.planner.plan(chore, scope, at: harness.clock.storedNow)
            }
            #expect(!outcome.changed)
            #expect(try harness.storedInstances(of: chore.id) == before)
            for _ in 0..<3 { try await harness.advance(seconds: Self.day) }
            #expect(try harness.storedCount(of: chore.id) == before.count + 3)
            // The same job run twice (a worker that died after its effect) adds nothing.
            try await harness.runDueJobs()
            #expect(try harness.storedCount(of: chore.id) == before.count + 3)
        }
    }

    @Test func afterDowntimeTheMissedOccurrencesAreStoredTooAsOverdue() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let chore = try await harness.households.chore("Plants", in: family.householdID, by: family.admin) { $0.schedule = harness.daily() }
            #expect(try harness.storedCount(of: chore.id) == 14)
            // The server was down for 30 days: one run catches up.
            harness.clock.advance(seconds: 30 * Self.day)
            try await harness.runDueJobs()
            #expect(try harness.doneJobs(.chorePlan) == 1)
            #expect(try harness.storedCount(of: chore.id) == 44, "days 0-29 (overdue) and the next 14")
        }
    }

    @Test func afterDowntimeTheLatestMissedOccurrencesUpToTheLimitAreStored() async throws {
        for limit in [16, 15] {
            try await InstancesHarness.with(configure: { $0.maximumMissedOccurrences = limit }) { harness in
                let family = try await harness.households.choreFamily()
                let chore = try await harness.households.chore("Plants", in: family.householdID, by: family.admin) { $0.schedule = harness.daily() }
                // Down for 30 days: days 14-29 were missed (16), days 30-43 are upcoming.
                let day14 = harness.instanceID(chore, at: harness.clock.now.addingTimeInterval(3600 + 14 * Self.day))
                harness.clock.advance(seconds: 30 * Self.day)
                try await harness.runDueJobs()
                #expect(try harness.storedCount(of: chore.id) == 14 + limit + 14, "limit \(limit)")
                let stored = try await harness.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM chore_instances WHERE id = ?", [day14]) }
                #expect(stored == (limit == 16 ? 1 : 0), "one past the limit, the oldest missed one is left out")
            }
        }
    }

    @Test func groupAndAllMembersChoresHaveAnInstancePerMemberOthersOneShared() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let due = harness.clock.now.addingTimeInterval(Self.day)
            func chore(_ mode: AssignmentMode, _ assignees: [String]?) async throws -> ChoreRecord {
                try await harness.households.chore("\(mode)", in: family.householdID, by: family.admin) {
                    $0.assignmentMode = mode
                    $0.assigneeIDs = assignees
                    $0.schedule = .once(due)
                }
            }
            let group = try await chore(.group, [family.memberID, family.childMemberID])
            let everyone = try await chore(.allMembers, nil)
            let individual = try await chore(.individual, [family.memberID])
            let single = try await chore(.singleAction, nil)
            #expect(try harness.storedInstances(of: group.id).map { $0.split(separator: " ")[1] }.sorted() == [family.memberID, family.childMemberID].sorted().map { Substring($0) })
            #expect(try harness.storedCount(of: everyone.id) == 3)
            #expect(try harness.storedInstances(of: individual.id).map { $0.split(separator: " ")[1] } == ["-"])
            #expect(try harness.storedInstances(of: single.id).map { $0.split(separator: " ")[1] } == ["-"])
        }
    }

    @Test func instancesBeyondTheHorizonAreComputedWithTheIDsTheyWillBeStoredUnder() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let chore = try await harness.households.chore("Bins", in: family.householdID, by: family.admin) {
                $0.assignmentMode = .individual
                $0.assigneeIDs = [family.memberID]
                $0.schedule = harness.daily()
            }
            let stored = try harness.storedCount(of: chore.id)
            let page = try await harness.instances.myChores(
                filter: MyChoresFilter(dueBefore: harness.clock.now.addingTimeInterval(20 * Self.day)), viewer: family.member)
            let computed = page.edges.map(\.node.instance).filter { !$0.isMaterialized }
            #expect(computed.count == 20 - stored)
            #expect(try harness.storedCount(of: chore.id) == stored, "reading writes nothing")
            let later = try #require(computed.first)
            #expect(later.id == harness.instanceID(chore, at: later.occurrenceAt))
            try await harness.advance(seconds: 2 * Self.day)
            let now = try await harness.instances.instance(id: later.id, viewer: family.member)
            #expect(now.instance.isMaterialized && now.instance.id == later.id)
        }
    }

    @Test func theFirstCompletionOfAnInstanceBeyondTheHorizonStoresIt() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let chore = try await harness.households.chore("Windows", in: family.householdID, by: family.admin) {
                $0.assignmentMode = .individual
                $0.assigneeIDs = [family.memberID]
                $0.schedule = .once(harness.clock.now.addingTimeInterval(30 * Self.day))
            }
            #expect(try harness.storedCount(of: chore.id) == 0)
            // The client derives the id from the chore and its due time, offline.
            let id = harness.instanceID(chore, at: harness.clock.now.addingTimeInterval(30 * Self.day))
            let result = try await harness.complete(id, as: family.member)
            #expect(result.outcome == .completed && result.instance.instance.isMaterialized)
            #expect(try harness.storedInstances(of: chore.id).map { $0.hasSuffix("completed") } == [true])
        }
    }

    @Test func editingTheScheduleRecalculatesWhatHasNotStartedAndNeverWhatIsDone() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let chore = try await harness.households.chore("Plants", in: family.householdID, by: family.admin) {
                $0.assignmentMode = .individual
                $0.assigneeIDs = [family.memberID]
                $0.schedule = harness.daily(startingIn: 600)
            }
            let first = harness.instanceID(chore, at: harness.clock.now.addingTimeInterval(600))
            try await harness.complete(first, as: family.member)
            let later = harness.instanceID(chore, at: harness.clock.now.addingTimeInterval(600 + 2 * Self.day))
            _ = try await harness.chores.updateChore(
                id: chore.id, ChoreFields(schedule: harness.daily(startingIn: 1800)), viewer: family.admin)
            let stored = try harness.storedInstances(of: chore.id)
            #expect(stored.first?.hasSuffix("completed") == true, "the completed one stays")
            #expect(stored.filter { $0.hasSuffix("pending") }.count == 14)
            await #expect(throws: ServiceError.instanceNotFound) { try await harness.instances.instance(id: later, viewer: family.member) }
            let moved = harness.instanceID(chore, at: harness.clock.now.addingTimeInterval(1800 + 2 * Self.day))
            #expect(try await harness.instances.instance(id: moved, viewer: family.member).instance.isMaterialized)
        }
    }

    @Test func aMemberJoiningOrLeavingChangesEveryAllMembersInstanceNotStarted() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let chore = try await harness.households.chore("Tidy", in: family.householdID, by: family.admin) {
                $0.assignmentMode = .allMembers
                $0.requiresApproval = false
                $0.schedule = harness.daily()
            }
            #expect(try harness.storedCount(of: chore.id) == 3 * 14)
            let cara = try await harness.households.confirmedViewer("cara")
            let caraID = try await harness.households.join(cara, family.householdID, invitedBy: family.admin)
            let joined = try harness.storedInstances(of: chore.id)
            #expect(joined.count == 4 * 14)
            #expect(joined.filter { $0.contains(caraID) }.count == 14, "every instance not yet started, not only later ones")
            // Ben did his first one; he leaves: his others go, that one stays.
            let bensFirst = harness.instanceID(chore, at: harness.clock.now.addingTimeInterval(3600), member: family.memberID)
            try await harness.complete(bensFirst, as: family.member)
            _ = try await harness.households.service.leaveHousehold(id: family.householdID, incompleteTasks: .unassign, viewer: family.member)
            let left = try harness.storedInstances(of: chore.id)
            #expect(left.filter { $0.contains(family.memberID) } == [joined.first { $0.contains(family.memberID) }!.replacing("pending", with: "completed")])
            #expect(left.count == 3 * 14 + 1)
        }
    }

    @Test func deletingAChoreCancelsItsPendingInstancesAndKeepsItsHistory() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let chore = try await harness.households.chore("Laundry", in: family.householdID, by: family.admin) {
                $0.assignmentMode = .individual
                $0.assigneeIDs = [family.memberID]
                $0.schedule = harness.daily()
            }
            try await harness.complete(harness.instanceID(chore, at: harness.clock.now.addingTimeInterval(3600)), as: family.member)
            _ = try await harness.chores.deleteChore(id: chore.id, viewer: family.admin)
            let stored = try harness.storedInstances(of: chore.id)
            #expect(stored.filter { $0.hasSuffix("completed") }.count == 1)
            #expect(stored.filter { $0.hasSuffix("cancelled") }.count == 13)
            let history = try await harness.instances.history(
                ofMember: family.memberID, access: try await harness.households.service.access(viewer: family.admin, householdID: family.householdID))
            #expect(history.edges.map(\.node.choreTitle) == ["Laundry"] && history.edges[0].node.isChoreDeleted)
            // No more runs for it.
            try await harness.advance(seconds: 2 * Self.day)
            #expect(try harness.storedCount(of: chore.id) == 14)
        }
    }

    @Test func aOneOffChoreIsArchivedOnceItsDueDayHasPassedAndKeptWhenDone() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let due = harness.clock.now.addingTimeInterval(3600)
            let undone = try await harness.households.chore("Forgotten", in: family.householdID, by: family.admin) { $0.schedule = .once(due) }
            let done = try await harness.households.chore("Done", in: family.householdID, by: family.admin) { $0.schedule = .once(due) }
            try await harness.complete(harness.instanceID(done, at: due), as: family.member)
            // The household is in UTC: the due day ends at the next midnight.
            let endOfDay = ChoreTimeline.endOfDay(of: due, in: .utc)
            try await harness.advance(seconds: endOfDay.timeIntervalSince(harness.clock.now) - 1)
            #expect(try harness.storedInstances(of: undone.id).map { $0.hasSuffix("pending") } == [true], "still due that day")
            try await harness.advance(seconds: 1)
            #expect(try harness.storedInstances(of: undone.id).map { $0.hasSuffix("archived") } == [true])
            #expect(try harness.storedInstances(of: done.id).map { $0.hasSuffix("completed") } == [true])
            let error = await harness.households.refusal { try await harness.complete(harness.instanceID(undone, at: due), as: family.member) }
            #expect(error?.reason == .instanceClosed)
        }
    }

    @Test func theNextInstanceOfAnAfterCompletionChoreIsPlannedFromTheCompletion() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let first = harness.clock.now.addingTimeInterval(3600)
            let chore = try await harness.households.chore("Sheets", in: family.householdID, by: family.admin) {
                $0.assignmentMode = .individual
                $0.assigneeIDs = [family.memberID]
                $0.schedule = .afterCompletion(every: 3, unit: .days, firstDueAt: first)
            }
            #expect(try harness.storedCount(of: chore.id) == 1)
            harness.clock.advance(seconds: 2 * Self.day)
            let completedAt = harness.clock.storedNow
            try await harness.complete(harness.instanceID(chore, at: first), as: family.member)
            let next = harness.instanceID(chore, at: completedAt.addingTimeInterval(3 * Self.day))
            #expect(try await harness.instances.instance(id: next, viewer: family.member).instance.status == .pending)
            #expect(try harness.storedCount(of: chore.id) == 2)
            let occurrences = try await harness.instances.occurrences(
                of: chore, access: ChoreAccess(try await harness.households.service.access(viewer: family.member, householdID: family.householdID)),
                after: harness.clock.now, first: 2)
            #expect(occurrences == [completedAt.addingTimeInterval(3 * Self.day), completedAt.addingTimeInterval(6 * Self.day)])
        }
    }

    @Test func occurrencesAnswerUpToTheLimitAndOneMoreIsBadInput() async throws {
        try await InstancesHarness.with(configure: { $0.maximumOccurrences = 500 }) { harness in
            let family = try await harness.households.choreFamily()
            let chore = try await harness.households.chore("Daily", in: family.householdID, by: family.admin) { $0.schedule = harness.daily() }
            let access = ChoreAccess(try await harness.households.service.access(viewer: family.member, householdID: family.householdID))
            let times = try await harness.instances.occurrences(of: chore, access: access, after: harness.clock.now, first: 500)
            #expect(times.count == 500 && times == times.sorted())
            let error = await harness.households.refusal {
                try await harness.instances.occurrences(of: chore, access: access, after: harness.clock.now, first: 501)
            }
            #expect(error?.code == .badUserInput && error?.problems.first?.field == "first")
        }
    }
}
