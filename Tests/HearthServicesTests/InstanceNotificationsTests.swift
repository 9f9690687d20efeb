@testable import HearthServices
import HearthStore
import Support
import Synchronization
import TestFixtures
import Testing

/// The notifications of other instances sharing the database, as the listener hands them over.
@Suite struct InstanceNotificationsTests {
    private final class Instance: Sendable {
        let relay: ChangeLogRelay
        let sessions = SessionDirectory()
        let notifications: InstanceNotifications

        init(pool: DatabasePool) {
            let relay = ChangeLogRelay(pool: pool, after: 0)
            self.relay = relay
            let counted = Counted()
            self.counter = counted
            notifications = InstanceNotifications(
                instanceID: "one", countCommitElsewhere: { counted.add() },
                relay: relay, sessions: sessions, logger: Logger(label: "test", level: .critical, sink: DiscardingLogSink()))
        }

        private let counter: Counted
        var counted: Int { counter.value }
    }

    private final class Counted: Sendable {
        private let count = Atomic(0)
        func add() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    private static let entry = SessionDirectory.Entry(
        userID: "usr_1", generation: 1, expiresAt: .distantFuture, isRevoked: false, signedInAt: .distantPast)

    @Test func anotherInstancesCommitMovesTheCountAndThisInstancesOwnDoesNot() async throws {
        try await MigratedDatabase.withPool { pool in
            let instance = Instance(pool: pool)
            instance.notifications.handle(.notification(channel: InstanceNotifications.commitsChannel, payload: "one"))
            #expect(instance.counted == 0)
            instance.notifications.handle(.notification(channel: InstanceNotifications.commitsChannel, payload: "two"))
            #expect(instance.counted == 1)
        }
    }

    @Test func aRevocationElsewhereEndsTheCachedSessionsAndTellsTheirObservers() async throws {
        try await MigratedDatabase.withPool { pool in
            let instance = Instance(pool: pool)
            instance.sessions.store(Self.entry, for: "ses_1")
            instance.sessions.store(Self.entry, for: "ses_2")
            let told = Mutex<[SessionDirectory.End]>([])
            _ = instance.sessions.observeEnd(of: "ses_2") { end in told.withLock { $0.append(end) } }
            instance.notifications.handle(.notification(channel: SessionDirectory.endsChannel, payload: "ses_2,ses_3"))
            #expect(instance.sessions.entry("ses_1")?.isRevoked == false)
            #expect(instance.sessions.entry("ses_2")?.isRevoked == true)
            #expect(told.withLock { $0 } == [.revoked])
        }
    }

    @Test func aReconnectAssumesEverythingWasMissed() async throws {
        try await MigratedDatabase.withPool { pool in
            let instance = Instance(pool: pool)
            instance.sessions.store(Self.entry, for: "ses_1")
            // A change committed elsewhere while the listening connection was down.
            let changeLog = ChangeLog(pool: pool, bus: InProcessEventBus())
            let missed = try await pool.write { db in try changeLog.record(topic: .server, kind: "test.step", payload: 1, in: db) }
            let subscription = instance.relay.subscribe(to: [.server], bufferSize: 4)
            let running = Task { await instance.relay.run(clock: ManualClock(), retryDelay: .seconds(1)) }
            instance.notifications.handle(.connected)
            #expect(instance.counted == 1)
            #expect(instance.sessions.entry("ses_1") == nil)
            var iterator = subscription.makeAsyncIterator()
            guard case .event(let event) = await iterator.next() else {
                Issue.record("no event")
                return
            }
            #expect(event.sequence == missed.sequence)
            running.cancel()
            await running.value
        }
    }
}
