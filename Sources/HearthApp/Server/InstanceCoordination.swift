import HearthServices
import HearthStore
import Support

/// How this process shares its database with other `hearth serve` processes: on SQLite, not
/// at all (the services write to the pool, the change log publishes on the in-process bus); on
/// PostgreSQL, the services write through a ``SharedDatabaseWriter`` that announces each commit,
/// the change log publishes through a ``ChangeLogRelay``, and one listening connection on a
/// thread of its own hands the other instances' notifications to ``InstanceNotifications``
/// (docs/architecture.md, "Every change is an event"; README, "Running several instances").
final class InstanceCoordination: Sendable {
    private struct Shared: Sendable {
        let store: PostgresStore
        let instanceID: String
        let relay: ChangeLogRelay
        let listener: PostgresNotificationListener
    }

    /// What services write and read through.
    let writer: any DatabaseWriter
    /// Where the change log publishes.
    let bus: any EventBus
    /// This instance's subscribers (for metrics).
    let local: InProcessEventBus
    private let shared: Shared?
    private let relayTask = BackgroundTask()
    private let listenerTask = BackgroundTask()

    /// The writer and bus for `store`; on PostgreSQL (`postgres` is the same store) the relay
    /// starts after the change log's latest sequence, so subscribers get what commits after they
    /// subscribe, as on SQLite.
    /// - Throws: ``StoreError`` when the latest sequence cannot be read.
    init(store: any DatabaseWriter, postgres: PostgresStore?) throws {
        let local = InProcessEventBus()
        self.local = local
        guard let postgres else {
            writer = store
            bus = local
            shared = nil
            return
        }
        let instanceID = "instance-" + Base64URL.encode(SecureRandom.bytes(9))
        let latest = try postgres.read { try ChangeLog.latestSequence(in: $0) }
        let relay = ChangeLogRelay(pool: postgres, local: local, after: latest)
        writer = SharedDatabaseWriter(base: postgres, announce: InstanceNotifications.announcement(of: instanceID))
        bus = relay
        shared = Shared(
            store: postgres, instanceID: instanceID, relay: relay,
            listener: PostgresNotificationListener(
                url: postgres.configuration.url, password: postgres.configuration.password, channels: InstanceNotifications.channels))
    }

    /// Starts relaying and listening (nothing on SQLite); `sessions` is the directory other
    /// instances' revocations update.
    func start(sessions: SessionDirectory, clock: any ServiceClock, logger: Logger) {
        guard let shared else { return }
        let notifications = InstanceNotifications(
            instanceID: shared.instanceID, countCommitElsewhere: { [store = shared.store] in store.advanceCommitCount() },
            relay: shared.relay, sessions: sessions, logger: logger)
        logger.info("sharing the database with other instances", ["instance.id": shared.instanceID])
        relayTask.start { [relay = shared.relay] in await relay.run(clock: clock, retryDelay: .seconds(1)) }
        listenerTask.start { [listener = shared.listener] in
            await DetachedThread.run(name: "pg-listener") { listener.run(notifications.handle) }
        }
    }

    /// Asks the relay and the listener to stop.
    func stop() {
        shared?.listener.stop()
        relayTask.cancel()
    }

    /// Waits until the relay and the listener have stopped.
    func waitUntilStopped() {
        relayTask.waitUntilStopped()
        listenerTask.waitUntilStopped()
    }
}
