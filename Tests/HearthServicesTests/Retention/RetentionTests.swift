import Foundation
@testable import HearthServices
import HearthStore
import TestFixtures
import Testing

/// Retention on the manual clock: every table kept exactly up to its horizon and pruned a
/// millisecond later, sessions only once ended, invitations only once expired and no mail
/// refers to them, bounded batches, the recurring job, and the change log's horizon as a
/// contract (`CURSOR_EXPIRED`).
struct RetentionTests {
    private static let day = 86_400.0

    /// A policy keeping everything for one day.
    private static var oneDay: RetentionPolicy {
        var policy = RetentionPolicy()
        for subject in RetentionPolicy.Subject.allCases { policy[subject] = .seconds(86_400) }
        return policy
    }

    private static func retention(_ harness: HouseholdsHarness, _ policy: RetentionPolicy = oneDay) -> RetentionJob {
        let clock = harness.clock
        return RetentionJob(
            policy: policy, jobs: JobQueue(pool: harness.pool, clock: clock),
            changeLog: ChangeLog(pool: harness.pool, bus: harness.bus, clock: clock), logger: .disabled)
    }

    private static func count(_ harness: HouseholdsHarness, _ sql: String) throws -> Int {
        try harness.pool.read { try $0.scalar(Int.self, sql) ?? 0 }
    }

    @Test func eachLogIsKeptUpToItsHorizonAndPrunedAMillisecondAfter() async throws {
        try await HouseholdsHarness.with { harness in
            let start = harness.clock.now
            let ana = try await harness.confirmedViewer("ana")  // a used email token
            _ = try await harness.service.createHousehold(.init(name: "Flat"), viewer: ana, clientMutationID: "m-1")  // change log, replay
            let jobs = JobQueue(pool: harness.pool, clock: harness.clock)
            let outbox = MailOutbox(jobs: jobs, messageIDDomain: "hearth.test")
            try await harness.pool.write { database in
                for _ in 0..<3 {
                    try outbox.enqueue(OutgoingMail(recipients: ["ada@example.org"], subject: "Hi", text: "Hi"), in: database)
                }
                try database.execute("UPDATE mail_outbox SET status = 'sent' WHERE id = 1")
                try database.execute("UPDATE mail_outbox SET status = 'failed' WHERE id = 2")
                try database.execute("UPDATE jobs SET state = 'done' WHERE id = 1")
                try database.execute("INSERT INTO analytics_events (name, occurred_at) VALUES ('household_created', ?)", [start])
            }
            let tables = ["change_log", "mail_outbox", "email_tokens", "mutation_replays", "analytics_events", "jobs"]
            let before = try tables.map { try Self.count(harness, "SELECT count(*) FROM \($0)") }
            #expect(!before.contains(0), "\(before)")

            harness.clock.advance(seconds: Self.day)
            let retention = Self.retention(harness)
            #expect(try retention.prune(at: harness.clock.now).values.allSatisfy { $0 == 0 }, "at the horizon, everything stays")
            harness.clock.advance(seconds: 0.001)
            let pruned = try retention.prune(at: harness.clock.now)
            #expect(pruned[.changeLog] == before[0] && pruned[.mail] == 2 && pruned[.emailTokens] == before[2])
            #expect(pruned[.mutationReplays] == 1 && pruned[.analyticsEvents] == 1 && pruned[.jobs] == 1)
            #expect(try tables.map { try Self.count(harness, "SELECT count(*) FROM \($0)") } == [0, 1, 0, 0, 0, 2])
            #expect(try Self.count(harness, "SELECT count(*) FROM mail_outbox WHERE status = 'pending'") == 1, "pending mail stays")
            #expect(try Self.count(harness, "SELECT count(*) FROM jobs WHERE state = 'pending'") == 2, "unfinished jobs stay")
        }
    }

    @Test func endedSessionsGoWithTheirSpentTokensAndLiveOnesStay() async throws {
        try await HouseholdsHarness.with { harness in
            _ = try await harness.accounts.register("ana")
            let (_, ben) = try await harness.accounts.register("ben")
            let rotated = try await harness.accounts.service.refresh(refreshToken: ben.refreshToken, clientAddress: "192.0.2.1")
            try await harness.accounts.service.logout(viewer: harness.accounts.service.authenticate(accessToken: rotated.accessToken))
            #expect(try Self.count(harness, "SELECT count(*) FROM spent_refresh_tokens") == 1)
            let retention = Self.retention(harness)

            harness.clock.advance(seconds: Self.day + 0.001)
            #expect(try retention.prune(at: harness.clock.now)[.sessions] == 2, "ben's session and its spent token")
            #expect(try Self.count(harness, "SELECT count(*) FROM spent_refresh_tokens") == 0)
            #expect(try Self.count(harness, "SELECT count(*) FROM sessions") == 1, "ana's session lives on")
            // Ana's refresh token expires 30 days after she signed in: her session ended then.
            harness.clock.advance(seconds: 30 * Self.day - 0.001)
            #expect(try retention.prune(at: harness.clock.now)[.sessions] == 0)
            harness.clock.advance(seconds: 0.001)
            #expect(try retention.prune(at: harness.clock.now)[.sessions] == 1)
            #expect(try Self.count(harness, "SELECT count(*) FROM sessions") == 0)
        }
    }

    @Test func expiredInvitationsGoWithTheirInviteeOnceNoMailRefersToThem() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let householdID = try await harness.service.createHousehold(.init(name: "Flat"), viewer: ana).household.id
            let expired = try await harness.service.inviteMember(
                .init(householdID: householdID, email: "ben@example.com"), viewer: ana, clientAddress: "198.51.100.7")
            try await harness.pool.write { database in
                try database.execute(
                    """
                    INSERT INTO mail_outbox (message_id, recipients, subject, text_body, created_at, next_attempt_at, status, link_kind, link_id)
                    SELECT 'm@hearth.test', '["ben@example.com"]', 'Join', 'x', created_at, created_at, 'pending', 'invitation', token_id
                    FROM invitations WHERE id = ?
                    """,
                    [expired.invitation.id])
            }
            harness.clock.advance(seconds: 14 * Self.day)
            _ = try await harness.service.inviteMember(
                .init(householdID: householdID, email: "cem@example.com"), viewer: ana, clientAddress: "198.51.100.7")
            let retention = Self.retention(harness)

            harness.clock.advance(seconds: Self.day + 0.001)
            #expect(try retention.prune(at: harness.clock.now)[.invitations] == 0, "its mail, still pending, refers to it")
            try await harness.pool.write { try $0.execute("DELETE FROM mail_outbox") }
            #expect(try retention.prune(at: harness.clock.now)[.invitations] == 1)
            #expect(try Self.count(harness, "SELECT count(*) FROM invitations") == 1, "the unexpired one stays")
            #expect(try Self.count(harness, "SELECT count(*) FROM members WHERE id = '\(expired.invitation.member.id)'") == 0)
            let removal = try await harness.pool.read { database in
                try database.queryOne("SELECT payload FROM change_log WHERE kind = 'member.removed'")
            }
            #expect(try (removal?["payload"] as String?)?.contains(expired.invitation.member.id) == true)
        }
    }

    @Test func aCursorOlderThanTheChangeLogsHorizonGetsCursorExpired() async throws {
        try await HouseholdsHarness.with { harness in
            let clock = harness.clock
            let changeLog = ChangeLog(pool: harness.pool, bus: harness.bus, clock: clock)
            func record(_ kind: EventKind, on topic: Topic = .household("h")) throws -> Event {
                try harness.pool.write { try changeLog.record(topic: topic, kind: kind, payload: ["n": 1], in: $0) }
            }
            let first = try record("test.first")
            clock.advance(seconds: 3600)
            let second = try record("test.second")
            // A superseded heartbeat deleted early moves no horizon.
            let beat = try record(.serverHeartbeat, on: .server)
            _ = try record(.serverHeartbeat, on: .server)
            _ = try await harness.pool.write { try ChangeLog.deleteChanges(topic: .server, kind: .serverHeartbeat, before: beat.sequence + 1, in: $0) }
            let topics: Set<Topic> = [.household("h")]
            #expect(try await changeLog.changes(after: 0, topics: topics, limit: 10).map(\.sequence) == [first.sequence, second.sequence])

            clock.advance(seconds: Self.day - 3600)
            let retention = Self.retention(harness)
            #expect(try retention.prune(at: clock.now)[.changeLog] == 0)
            #expect(try await changeLog.changes(after: 0, topics: topics, limit: 10).count == 2, "at the horizon, a cursor from the start works")
            clock.advance(seconds: 0.001)
            #expect(try retention.prune(at: clock.now)[.changeLog] == 1)

            let expired = await #expect(throws: ServiceError.self) { try await changeLog.changes(after: 0, topics: topics, limit: 10) }
            #expect(expired?.code == .cursorExpired && expired?.message.contains("Fetch the current state again") == true)
            #expect(try await changeLog.changes(after: first.sequence, topics: topics, limit: 10).map(\.sequence) == [second.sequence])
            var stale = changeLog.feed(of: topics, after: first.sequence - 1).makeAsyncIterator()
            let feedError = await #expect(throws: ServiceError.self) { try await stale.next() }
            #expect(feedError?.code == .cursorExpired)
            var current = changeLog.feed(of: topics, after: first.sequence).makeAsyncIterator()
            #expect(try await current.next()?.sequence == second.sequence)
        }
    }

    @Test func notificationsAreKeptUpToTheirHorizonAndPrunedAMillisecondAfter() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let made = harness.clock.storedNow
            try await harness.pool.write { database in
                for index in 0..<3 {
                    try database.execute(
                        """
                        INSERT INTO notifications (id, user_id, kind, title, body, tag, dedupe_key, created_at)
                        VALUES (?, ?, 'reminder', 'Bins', 'Due now.', 'tag', ?, ?)
                        """,
                        ["ntf_0190aaaa-0000-7000-8000-00000000000\(index)", ana.userID, "key-\(index)", made])
                }
            }
            harness.clock.advance(seconds: Self.day)
            #expect(try Self.retention(harness).prune(at: harness.clock.now)[.notifications] == 0, "at the horizon, they stay")
            harness.clock.advance(seconds: 0.001)
            #expect(try Self.retention(harness).prune(at: harness.clock.now)[.notifications] == 3)
            #expect(try Self.count(harness, "SELECT count(*) FROM notifications") == 0)
        }
    }

    @Test func aBatchDeletesAtMostTheBatchSizeAndARunDeletesEveryBatch() async throws {
        try await HouseholdsHarness.with { harness in
            let start = harness.clock.now
            try await harness.pool.write { database in
                for _ in 0..<5 {
                    try database.execute("INSERT INTO analytics_events (name, occurred_at) VALUES ('x', ?)", [start])
                }
            }
            harness.clock.advance(seconds: Self.day + 1)
            let rule = try #require(PruneRule.all(changeLog: ChangeLog(pool: harness.pool, bus: harness.bus)).first { $0.subject == .analyticsEvents })
            let cutoff = harness.clock.now.addingTimeInterval(-Self.day)
            #expect(try await harness.pool.write { try rule.step(cutoff, 2, $0) } == 2, "the batch size, not one more")
            var policy = Self.oneDay
            policy.batchSize = 2
            #expect(try Self.retention(harness, policy).prune(at: harness.clock.now)[.analyticsEvents] == 3, "2, then 1")
            #expect(try Self.count(harness, "SELECT count(*) FROM analytics_events") == 0)
        }
    }

    @Test func eachRunSchedulesTheNextOccurrenceOnceOnTheIntervalsGrid() async throws {
        try await HouseholdsHarness.with { harness in
            let clock = harness.clock
            let jobs = JobQueue(pool: harness.pool, clock: clock)
            let retention = Self.retention(harness)
            let scheduler = JobScheduler(queue: jobs, handlers: [retention], logger: .disabled)
            try retention.schedule()
            try retention.schedule()  // a restart, or a second process
            func pending() throws -> [Job] {
                try harness.pool.read { try JobQueue.jobs(state: .pending, kind: .retention, limit: 10, in: $0) }
            }
            let first = try #require(try pending().first)
            #expect(try pending().count == 1)
            // The clock starts at 1_790_000_000, 800 seconds into an hour.
            #expect(first.dueAt == Date(timeIntervalSince1970: 1_790_002_800) && first.dedupeKey == "1790002800")
            clock.advance(seconds: 2800)
            #expect(try await scheduler.runDueJobs().done == 1)
            #expect(try pending().map(\.dueAt) == [Date(timeIntervalSince1970: 1_790_006_400)])
            try retention.schedule()
            #expect(try pending().count == 1)
        }
    }

    @Test func horizonsThatContradictEachOtherAreNamed() {
        var policy = RetentionPolicy()
        #expect(policy.violations().isEmpty, "the defaults agree")
        policy[.mutationReplays] = .seconds(29 * 86_400)
        #expect(policy.violations().map(\.longer) == [.mutationReplays])
        policy[.mutationReplays] = .seconds(30 * 86_400)
        policy[.mail] = .seconds(31 * 86_400)
        #expect(policy.violations().map(\.longer) == [.invitations, .emailTokens])
    }
}
