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
    private static func with(
        configure: (inout InstancesConfiguration) -> Void = { _ in }, _ body: (InstancesHarness, VacationService, JobScheduler) async throws -> Void
    ) async throws {
        try await InstancesHarness.with(configure: configure) { harness in
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
            #expect(kinds == ["member.vacation_scheduled", "member.vacation_started", "member.vacation_ended"])
            // Running the jobs again changes nothing.
            try await harness.pool.write { try $0.execute("UPDATE jobs SET state = 'pending', attempts = 0 WHERE kind LIKE 'vacation.%'") }
            _ = try await scheduler.runDueJobs()
            let count = try await harness.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM change_log WHERE kind LIKE 'member.vacation%'") }
            #expect(count == 3)
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
                // It comes due while Ben is away.
                harness.clock.advance(seconds: 3600)
                try await vacations.endVacation(householdID: family.householdID, memberIDs: [family.memberID], viewer: family.member)
                #expect(try Self.instance(id, harness)?.reassignedTo == (reclaims ? nil : family.adminMemberID), "reclaims: \(reclaims)")
            }
        }
    }

    @Test func aMemberHasAtMostTheConfiguredNumberOfVacationsUnderWayOrScheduledAndEndingOneMakesRoom() async throws {
        try await Self.with(configure: { $0.maximumVacationsPerMember = 3 }) { harness, vacations, _ in
            let family = try await harness.households.choreFamily()
            let now = harness.clock.now
            func book(_ day: Double) async throws -> VacationService.Outcome {
                try await vacations.startVacation(
                    householdID: family.householdID, memberIDs: [family.childMemberID],
                    VacationRequest(startsAt: now.addingTimeInterval(day * 86_400), endsAt: now.addingTimeInterval((day + 1) * 86_400), handling: .pause),
                    viewer: family.admin)
            }
            let first = try await book(1)
            _ = try await book(3)
            _ = try await book(5)
            let refused = await #expect(throws: ServiceError.self) { try await book(7) }
            #expect(refused?.code == .conflict && refused?.reason == .limitReached, "\(String(describing: refused))")
            _ = try await vacations.endVacation(householdID: family.householdID, memberIDs: [family.childMemberID], viewer: family.admin)
            #expect(try await harness.pool.read { try $0.scalar(String.self, "SELECT status FROM member_vacations WHERE id = ?", [first.vacations[0].id]) } == "ended")
            _ = try await book(7)
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

    @Test func aChangeOfTheVacationSettingsIsAnEventOfTheHouseholdInTheSameTransaction() async throws {
        try await Self.with { harness, vacations, _ in
            let family = try await harness.households.choreFamily()
            let updates = {
                try await harness.pool.read { database in
                    try database.scalar(
                        Int.self, "SELECT count(*) FROM change_log WHERE topic = ? AND kind = ?",
                        ["household:\(family.householdID)", EventKind.householdUpdated.rawValue]) ?? 0
                }
            }
            let before = try await updates()
            _ = try await vacations.updateVacationSettings(householdID: family.householdID, reclaimRedistributedOnReturn: true, viewer: family.admin)
            #expect(try await updates() == before + 1, "other devices and caches learn of the new setting")
            _ = try await vacations.updateVacationSettings(householdID: family.householdID, reclaimRedistributedOnReturn: true, viewer: family.admin)
            #expect(try await updates() == before + 1, "setting it to what it is changes nothing")
        }
    }

    @Test func FR22_anInstancePausedForAnAwayMemberResumesWhenItsChoreIsGivenToSomeoneAvailable() async throws {
        try await Self.with { harness, vacations, _ in
            let family = try await harness.households.choreFamily()
            let (chore, id) = try await harness.oneOffChore(family)
            try await vacations.startVacation(
                householdID: family.householdID, memberIDs: [family.memberID], VacationRequest(handling: .pause), viewer: family.member)
            #expect(try Self.instance(id, harness)?.status == .paused)
            _ = try await harness.chores.updateChore(id: chore.id, ChoreFields(assigneeIDs: [family.adminMemberID]), viewer: family.admin)
            #expect(try Self.instance(id, harness)?.status == .pending, "Ana is here to do it: nothing waits for Ben")
            #expect(try await harness.instances.myChores(viewer: family.admin).edges.contains { $0.node.instance.id == id })
        }
    }

    @Test func FR21_aClaimOfAnInstanceHandedOnMovesItToTheClaimantsList() async throws {
        try await Self.with { harness, vacations, _ in
            let family = try await harness.households.choreFamily()
            // Ben's, and Kim may do it too: handed to Kim while Ben is away.
            let (_, id) = try await harness.oneOffChore(family) { $0.completers = PermissionRule(memberIDs: [family.childMemberID]) }
            try await vacations.startVacation(
                householdID: family.householdID, memberIDs: [family.memberID], VacationRequest(handling: .redistribute), viewer: family.member)
            #expect(try Self.instance(id, harness)?.reassignedTo == family.childMemberID)
            // Ana, an admin, says she will do it.
            try await harness.claim(id, as: family.admin)
            let mine = { (viewer: Viewer) in try await harness.instances.myChores(viewer: viewer).edges.contains { $0.node.instance.id == id } }
            #expect(try await mine(family.admin), "the claimant has it")
            #expect(try await !mine(family.child), "and Kim no longer")
        }
    }

    @Test func aVacationScheduledForLaterIsAnEventOfTheHouseholdInTheTransactionThatMakesIt() async throws {
        try await Self.with { harness, vacations, _ in
            let family = try await harness.households.choreFamily()
            let start = harness.clock.now.addingTimeInterval(3600)
            _ = try await vacations.startVacation(
                householdID: family.householdID, memberIDs: [family.memberID], VacationRequest(startsAt: start, handling: .pause), viewer: family.member)
            // Member.vacation now shows it: the household's devices learn so from an event, as for a start or an end.
            let events = try await harness.pool.read { database in
                try database.query(
                    "SELECT kind, payload FROM change_log WHERE topic = ? AND kind LIKE 'member.vacation%' ORDER BY sequence",
                    ["household:\(family.householdID)"]
                ).map { row in "\(try row["kind"] as String) \(try EventPayload(json: try row["payload"]).decode(HouseholdChange.self).memberID ?? "-")" }
            }
            #expect(events == ["member.vacation_scheduled \(family.memberID)"])
        }
    }

    @Test func FR52_aMemberOnVacationClaimsNothingInTheHouseholdTheyAreAwayFrom() async throws {
        try await Self.with { harness, vacations, _ in
            let family = try await harness.households.choreFamily()
            // Ana's, and any adult may do it: Ben is eligible, but away.
            let (_, id) = try await harness.oneOffChore(family) {
                $0.assignmentMode = .singleAction
                $0.assigneeIDs = [family.adminMemberID]
            }
            _ = try await vacations.startVacation(
                householdID: family.householdID, memberIDs: [family.memberID], VacationRequest(handling: .pause), viewer: family.member)
            let claim = await #expect(throws: ServiceError.self) { try await harness.claim(id, as: family.member) }
            #expect(claim?.code == .conflict && claim?.reason?.rawValue == "MEMBER_AWAY", "\(String(describing: claim))")
            #expect(try Self.instance(id, harness)?.claimantID == nil, "it stays with Ana, who is here")
            _ = try await vacations.endVacation(householdID: family.householdID, memberIDs: [family.memberID], viewer: family.member)
            try await harness.claim(id, as: family.member)
        }
    }

    @Test func FR23_whatIsNotDueYetWhenTheMemberReturnsIsTheirsAgainWhateverTheReclaimSetting() async throws {
        try await Self.with { harness, vacations, scheduler in
            let family = try await harness.households.choreFamily()
            // Ben's daily chore, which any adult may also do; planned two weeks ahead.
            let chore = try await harness.households.chore("Dishes", in: family.householdID, by: family.admin) {
                $0.assignmentMode = .singleAction
                $0.assigneeIDs = [family.memberID]
                $0.requiresApproval = false
                $0.schedule = harness.daily()
            }
            _ = try await vacations.startVacation(
                householdID: family.householdID, memberIDs: [family.memberID], VacationRequest(handling: .redistribute), viewer: family.member)
            // Two days away: what came due meanwhile is Ana's to keep (the household does not reclaim).
            harness.clock.advance(seconds: 2 * 86_400)
            _ = try await scheduler.runDueJobs()
            _ = try await vacations.endVacation(householdID: family.householdID, memberIDs: [family.memberID], viewer: family.member)
            let now = harness.clock.now
            let holders = try await harness.pool.read { database in
                try database.query(
                    "SELECT due_at, coalesce(reassigned_to, '-') AS holder FROM chore_instances WHERE chore_id = ? AND status = 'pending' ORDER BY due_at",
                    [chore.id]
                ).map { row in (due: try row["due_at"] as Date, holder: try row["holder"] as String) }
            }
            #expect(holders.filter { $0.due <= now }.map(\.holder) == [family.adminMemberID, family.adminMemberID])
            let later = holders.filter { $0.due > now }
            #expect(later.count >= 10, "two weeks planned")
            #expect(later.allSatisfy { $0.holder == "-" }, "Ben is back before they are due: \(later.map(\.holder))")
        }
    }

    @Test func aClashWithAnotherVacationNamesTheInputFieldItComesFrom() async throws {
        try await Self.with { harness, vacations, _ in
            let family = try await harness.households.choreFamily()
            let later = VacationRequest(startsAt: harness.clock.now.addingTimeInterval(3600), handling: .pause)
            _ = try await vacations.startVacation(householdID: family.householdID, memberIDs: [family.childMemberID], later, viewer: family.admin)
            // Kim is the third id given (Ben twice before her).
            let named = await #expect(throws: ServiceError.self) {
                try await vacations.startVacation(
                    householdID: family.householdID, memberIDs: [family.memberID, family.memberID, family.childMemberID], later, viewer: family.admin)
            }
            #expect(named?.problems.map(\.field) == ["input.memberIds[2]"])
            // The whole household's has no member ids: its dates clash.
            let everyone = await #expect(throws: ServiceError.self) {
                try await vacations.startHouseholdVacation(householdID: family.householdID, later, viewer: family.admin)
            }
            #expect(everyone?.problems.map(\.field) == ["input.startsAt"])
        }
    }

    @Test func FR22_aClaimReleasedAsItsClaimantLeavesIsNotOfferedWhenItIsPausedForThem() async throws {
        try await Self.with { harness, vacations, scheduler in
            let family = try await harness.households.choreFamily()
            // Ben's, which Ana may do too: offered to both when due; Ben claims it.
            let (_, id) = try await harness.oneOffChore(family) { $0.assignmentMode = .singleAction }
            harness.clock.advance(seconds: 3600)
            _ = try await scheduler.runDueJobs()
            try await harness.claim(id, as: family.member)
            let names = [id: "bins", family.memberID: "ben", family.adminMemberID: "ana"]
            #expect(try harness.events([.choreInstanceOffered], names: names) == ["offered bins - [ana ben]"])
            _ = try await vacations.startVacation(
                householdID: family.householdID, memberIDs: [family.memberID], VacationRequest(handling: .pause), viewer: family.member)
            #expect(try Self.instance(id, harness)?.status == .paused)
            let events = try harness.events([.choreInstanceOffered, .choreInstanceReleased, .choreInstancePaused], names: names)
            #expect(events == ["offered bins - [ana ben]", "released bins ben", "paused bins ben"], "nothing offered to Ana that waits for Ben")
        }
    }
}
