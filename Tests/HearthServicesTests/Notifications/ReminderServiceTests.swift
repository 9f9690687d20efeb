import FoundationEssentials
@testable import HearthServices
import HearthDomain
import HearthStore
import Support
import Synchronization
import TestFixtures
import Testing

/// Reminders through the services with the manual clock (issue 18, FR-49 – FR-53): a recurring
/// chore's reminders planned as the horizon moves and fired once per member and occurrence, the
/// channels chosen, re-planning after an edit, and the withdrawal on a claim.
@Suite struct ReminderServiceTests {
    /// The instance and notification services over one household harness, with a scheduler
    /// running planning, offers and reminders, and a channel that records what it is told.
    struct Harness {
        let households: HouseholdsHarness
        let instances: ChoreInstanceService
        let notifications: NotificationService
        let scheduler: JobScheduler
        let recorder: RecordingChannel

        var clock: ManualClock { households.clock }

        static func with<T>(_ body: (Harness) async throws -> T) async throws -> T {
            try await HouseholdsHarness.with { households in
                let jobs = JobQueue(pool: households.pool, clock: households.clock)
                let instances = ChoreInstanceService(configuration: InstancesConfiguration(), chores: households.chores, jobs: jobs)
                let channels = NotificationChannels()
                let recorder = RecordingChannel()
                channels.register(recorder)
                let notifications = NotificationService(instances: instances, notifier: Notifier(channels: channels), jobs: jobs)
                let scheduler = JobScheduler(
                    queue: jobs, handlers: [instances.planJob, instances.offerJob, notifications.reminderJob],
                    logger: Logger(label: "test", level: .critical, sink: DiscardingLogSink()))
                return try await body(Harness(
                    households: households, instances: instances, notifications: notifications, scheduler: scheduler, recorder: recorder))
            }
        }

        /// Moves the clock by `seconds` and runs the jobs due then.
        func advance(seconds: Double) async throws {
            clock.advance(seconds: seconds)
            _ = try await scheduler.runDueJobs()
        }

        /// `viewer`'s notifications as `kind body`, oldest first.
        func notices(of viewer: Viewer) async throws -> [String] {
            try await notifications.notifications(viewer: viewer).edges.reversed().map { "\($0.node.notice.kind.rawValue) \($0.node.notice.body)" }
        }
    }

    /// A push-like channel that records each notice and withdrawal it is told about.
    final class RecordingChannel: NotificationChannel {
        private let lock = Mutex<[String]>([])
        var kind: NotificationChannelKind { .push }
        var told: [String] { lock.withLock { $0 } }
        func deliver(_ notice: Notice, in database: Database) throws { lock.withLock { $0.append("deliver \(notice.userID) \(notice.body)") } }
        func withdraw(_ notice: Notice, in database: Database) throws { lock.withLock { $0.append("withdraw \(notice.userID) \(notice.tag)") } }
    }

    @Test func aDailyChoresRemindersFireOncePerOccurrenceAndMemberAsTimePasses() async throws {
        try await Harness.with { harness in
            let family = try await harness.households.choreFamily()
            let start = harness.clock.now.addingTimeInterval(3600)
            let chore = try await harness.households.chore("Feed the cat", in: family.householdID, by: family.admin) {
                $0.assignmentMode = .individual
                $0.assigneeIDs = [family.memberID]
                $0.schedule = .recurrence("DTSTART:\(Self.icalendar(start))Z\nRRULE:FREQ=DAILY")
                $0.reminders = [ReminderOffset(seconds: 1800)]
            }
            #expect(chore.reminders == [ReminderOffset(seconds: 1800)])
            for _ in 0..<(3 * 24) { try await harness.advance(seconds: 3600) }
            let notices = try await harness.notices(of: family.member)
            // The assignment, then a reminder for each of the three occurrences passed.
            #expect(notices == ["assigned A new chore for you."] + Array(repeating: "reminder Due in 30 minutes.", count: 3), "\(notices)")
            #expect(try await harness.notices(of: family.admin).isEmpty, "Ana is not eligible for Ben's chore")
            #expect(harness.recorder.told.filter { $0.hasPrefix("deliver") }.count == 4, "push is among the default channels")
        }
    }

    @Test func aChosenChannelListLeavesOthersOutAndKeepsTheRecord() async throws {
        try await Harness.with { harness in
            let family = try await harness.households.choreFamily()
            _ = try await harness.notifications.updateNotificationPreferences(.init(channels: [.live]), viewer: family.member)
            _ = try await harness.households.chore("Post", in: family.householdID, by: family.admin) {
                $0.assignmentMode = .individual
                $0.assigneeIDs = [family.memberID]
            }
            #expect(try await harness.notices(of: family.member) == ["assigned A new chore for you."])
            #expect(harness.recorder.told.isEmpty, "push was not chosen")
        }
    }

    @Test func anEditMovesTheRemindersAndAClaimWithdrawsTheOthersNotices() async throws {
        try await Harness.with { harness in
            let family = try await harness.households.choreFamily()
            let due = harness.clock.now.addingTimeInterval(4 * 3600)
            let chore = try await harness.households.chore("Hoover", in: family.householdID, by: family.admin) {
                $0.assignmentMode = .singleAction
                $0.schedule = .once(due)
                $0.reminders = [ReminderOffset(seconds: 3 * 3600)]
            }
            _ = try await harness.households.chores.updateChore(id: chore.id, ChoreFields(reminders: [ReminderOffset(seconds: 2 * 3600)]), viewer: family.admin)
            try await harness.advance(seconds: 3600 + 1)
            #expect(try await harness.notices(of: family.admin).isEmpty, "the removed offset's job did nothing")
            try await harness.advance(seconds: 3600)
            #expect(try await harness.notices(of: family.admin) == ["reminder Due in 2 hours."])
            #expect(try await harness.notices(of: family.member) == ["reminder Due in 2 hours."])
            let instanceID = ChoreInstanceID.make(choreID: chore.id, occurrence: due, memberID: nil).rawValue
            _ = try await harness.instances.claimChore(instanceID: instanceID, viewer: family.member)
            let admins = try await harness.notifications.notifications(viewer: family.admin).edges.map(\.node)
            #expect(admins.count == 1 && admins[0].dismissedAt != nil)
            #expect(harness.recorder.told.last == "withdraw \(family.admin.userID) \(Notice.tag(for: instanceID))")
            let members = try await harness.notifications.notifications(viewer: family.member).edges.map(\.node)
            #expect(members.count == 1 && members[0].dismissedAt == nil, "the claimant's stays")
        }
    }

    /// `date` as an iCalendar UTC date-time without the `Z`: `20260301T083000`.
    static func icalendar(_ date: Date) -> String {
        String(WallClock.Instant(date).iso8601.prefix(19).filter { $0 != "-" && $0 != ":" })
    }
}
