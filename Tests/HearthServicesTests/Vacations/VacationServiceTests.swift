import FoundationEssentials
import HearthDomain
@testable import HearthServices
import Support
import Testing
import TestFixtures

/// The rules of vacation mode in the service (FR-19 – FR-24): pausing keeps instances out of offers
/// and claims, scheduled starts and ends run as durable jobs, and what was handed on comes back only
/// when the household says so.
@Suite struct VacationServiceTests {
    /// The instances harness with a vacation service and a scheduler that runs every job kind.
    private static func with(_ body: (InstancesHarness, VacationService, JobScheduler) async throws -> Void) async throws {
        try await InstancesHarness.with { harness in
            let jobs = JobQueue(pool: harness.pool, clock: harness.clock)
            let vacations = VacationService(instances: harness.instances, jobs: jobs)
            let scheduler = JobScheduler(
                queue: jobs, handlers: [harness.instances.planJob, harness.instances.offerJob, vacations.startJob, vacations.endJob],
                logger: Logger(label: "test", level: .critical, sink: DiscardingLogSink()))
            try await body(harness, vacations, scheduler)
        }
    }

    /// The stored instance `id`.
    private static func instance(_ id: String, _ harness: InstancesHarness) throws -> ChoreInstanceRecord? {
        try harness.pool.read { database in
            try database.queryOne("SELECT \(ChoreInstanceRecord.columns) FROM chore_instances WHERE id = ?", [id]).map(ChoreInstanceRecord.init(row:))
        }
    }

    @Test func FR22_aPausedInstanceIsNeitherOfferedNorClaimableAndResumesWhenItsMemberIsBack() async throws {
        try await Self.with { harness, vacations, scheduler in
            let family = try await harness.households.choreFamily()
            // Ben's chore, which any adult may also do (so it would be offered).
            let (_, id) = try await harness.oneOffChore(family) { $0.assignmentMode = .singleAction }
            try await vacations.startVacation(
                householdID: family.householdID, memberIDs: [family.memberID], VacationRequest(handling: .pause), viewer: family.member)
            #expect(try Self.instance(id, harness)?.status == .paused)
            let claim = await #expect(throws: ServiceError.self) { try await harness.claim(id, as: family.admin) }
            #expect(claim?.code == .conflict && claim?.reason == .instancePaused, "\(String(describing: claim))")
            harness.clock.advance(seconds: 3600)
            _ = try await scheduler.runDueJobs()
            #expect(try harness.events([.choreInstanceOffered]).isEmpty, "a paused instance is offered to nobody")

            let names = [id: "bins", family.memberID: "ben"]
            try await vacations.endVacation(householdID: family.householdID, memberIDs: [family.memberID], viewer: family.admin)
            #expect(try Self.instance(id, harness)?.status == .pending)
            #expect(try harness.events([.choreInstancePaused, .choreInstanceResumed], names: names) == ["paused bins ben", "resumed bins ben"])
            #expect(try harness.events([.choreInstanceOffered]).count == 1, "due and resumed: offered at once")
        }
    }

    @Test func FR24_aScheduledVacationBeginsAndEndsThroughTheJobsOnceEach() async throws {
        try await Self.with { harness, vacations, scheduler in
            let family = try await harness.households.choreFamily()
            let due = harness.clock.now.addingTimeInterval(86_400)
            let (chore, _) = try await harness.oneOffChore(family) { $0.schedule = .once(due) }
            let id = harness.instanceID(chore, at: due)
            let start = harness.clock.now.addingTimeInterval(3600)
            let outcome = try await vacations.startVacation(
                householdID: family.householdID, memberIDs: [family.memberID],
                VacationRequest(startsAt: start, endsAt: start.addingTimeInterval(3600), handling: .pause), viewer: family.admin)
            #expect(outcome.vacations.map(\.status) == [.scheduled])
            #expect(try Self.instance(id, harness)?.status == .pending)
            harness.clock.advance(seconds: 3600)
            _ = try await scheduler.runDueJobs()
            #expect(try Self.instance(id, harness)?.status == .paused)
            harness.clock.advance(seconds: 3600)
            _ = try await scheduler.runDueJobs()
            #expect(try Self.instance(id, harness)?.status == .pending)
            let kinds = try await harness.pool.read { database in
                try database.query("SELECT kind FROM change_log WHERE kind LIKE 'member.vacation%' ORDER BY sequence").map { try $0["kind"] as String }
            }
            #expect(kinds == ["member.vacation_started", "member.vacation_ended"])
            // Running the jobs again changes nothing.
            try await harness.pool.write { try $0.execute("UPDATE jobs SET state = 'pending', attempts = 0 WHERE kind LIKE 'vacation.%'") }
            _ = try await scheduler.runDueJobs()
            let count = try await harness.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM change_log WHERE kind LIKE 'member.vacation%'") }
            #expect(count == 2)
        }
    }

    @Test func FR23_whatWasHandedOnStaysWithTheHelperUnlessTheHouseholdReclaimsIt() async throws {
        for reclaims in [false, true] {
            try await Self.with { harness, vacations, _ in
                let family = try await harness.households.choreFamily()
                let (_, id) = try await harness.oneOffChore(family) { $0.assignmentMode = .singleAction }
                if reclaims {
                    _ = try await vacations.updateVacationSettings(householdID: family.householdID, reclaimRedistributedOnReturn: true, viewer: family.admin)
                }
                try await vacations.startVacation(
                    householdID: family.householdID, memberIDs: [family.memberID], VacationRequest(handling: .redistribute), viewer: family.member)
                #expect(try Self.instance(id, harness)?.reassignedTo == family.adminMemberID, "Ana, the only other adult")
                try await vacations.endVacation(householdID: family.householdID, memberIDs: [family.memberID], viewer: family.member)
                #expect(try Self.instance(id, harness)?.reassignedTo == (reclaims ? nil : family.adminMemberID), "reclaims: \(reclaims)")
            }
        }
    }

    @Test func FR19_aMemberMayNotChangeTheSettingsAndNobodyIsOnTwoVacationsAtOnce() async throws {
        try await Self.with { harness, vacations, _ in
            let family = try await harness.households.choreFamily()
            let settings = await #expect(throws: ServiceError.self) {
                try await vacations.updateVacationSettings(householdID: family.householdID, reclaimRedistributedOnReturn: true, viewer: family.member)
            }
            #expect(settings?.reason == .adminsOnly)
            let now = harness.clock.now
            try await vacations.startVacation(
                householdID: family.householdID, memberIDs: [family.childMemberID],
                VacationRequest(startsAt: now.addingTimeInterval(100), endsAt: now.addingTimeInterval(200), handling: .pause), viewer: family.admin)
            let overlap = await #expect(throws: ServiceError.self) {
                try await vacations.startVacation(
                    householdID: family.householdID, memberIDs: [family.childMemberID],
                    VacationRequest(startsAt: now.addingTimeInterval(199), handling: .pause), viewer: family.admin)
            }
            #expect(overlap?.problems.map(\.field) == ["input.memberIds[0]"])
            // Back to back is no overlap.
            try await vacations.startVacation(
                householdID: family.householdID, memberIDs: [family.childMemberID],
                VacationRequest(startsAt: now.addingTimeInterval(200), handling: .pause), viewer: family.admin)
        }
    }

    @Test func FR21_anInstanceHandedOnIsNotOfferedWhenItComesDue() async throws {
        try await Self.with { harness, vacations, scheduler in
            let family = try await harness.households.choreFamily()
            let (_, id) = try await harness.oneOffChore(family) { $0.assignmentMode = .singleAction }
            try await vacations.startVacation(
                householdID: family.householdID, memberIDs: [family.memberID], VacationRequest(handling: .redistribute), viewer: family.member)
            harness.clock.advance(seconds: 3600)
            _ = try await scheduler.runDueJobs()
            #expect(try harness.events([.choreInstanceOffered]).isEmpty, "Ana holds it: nothing to offer")
            #expect(try Self.instance(id, harness)?.reassignedTo == family.adminMemberID)
        }
    }

    @Test func FR22_aCompletionUndoneWhileItsMemberIsAwayWaitsForThemAgain() async throws {
        try await Self.with { harness, vacations, _ in
            let family = try await harness.households.choreFamily()
            let (_, id) = try await harness.oneOffChore(family)
            try await harness.complete(id, as: family.member)
            try await vacations.startVacation(
                householdID: family.householdID, memberIDs: [family.memberID], VacationRequest(handling: .pause), viewer: family.member)
            #expect(try Self.instance(id, harness)?.status == .completed, "what is done stays done")
            _ = try await harness.instances.uncompleteChore(instanceID: id, viewer: family.member)
            #expect(try Self.instance(id, harness)?.status == .paused)
        }
    }
}
