import FoundationEssentials
import HearthStore
import Synchronization

/// The ``EventBus`` of one server instance among several sharing a database (PostgreSQL):
/// the instance's subscribers receive every change any instance commits, in sequence order,
/// without gaps or repeats, because their events come from reading the change log, never
/// straight from the committing transaction.
///
/// Whenever it is woken (``publish(_:)`` after a commit here; a notification of a commit on
/// another instance, `LISTEN`/`NOTIFY`; a reconnect of that listener), the relay reads the log
/// after the last sequence it delivered and publishes what it finds, in order, on ``local``,
/// the instance's ``InProcessEventBus``, which does the fan-out with its ordering and overflow
/// rules unchanged. Wakes that come while it reads make it read once more, so none is lost,
/// and many wakes before a read cost one read.
///
/// **Why reading the log is gap-free.** A sequence is taken when a row is inserted, not when
/// its transaction commits, so a reader could see sequence 8 committed while 7 is still in
/// flight, deliver 8, and skip 7 for good. On PostgreSQL the change log's appends are
/// serialised (``ChangeLog/record(topic:kind:payload:touching:in:)`` takes a transaction-scoped
/// advisory lock before the insert, `Database.serializeAppends(to:)`): a transaction holds it
/// from its first append until it ends, so a lower sequence belongs to a transaction that had
/// committed (or rolled back) before a higher one was taken, and every snapshot that shows a
/// sequence shows every committed one below it. A hole in a snapshot is a rollback, forever.
/// SQLite's single writer gives the same order by itself.
///
/// Why serialise rather than read below a watermark (`pg_snapshot_xmin` over a recorded
/// transaction id): a watermark needs each row's horizon taken after its sequence in a fresh
/// snapshot, which a `REPEATABLE READ` or `SERIALIZABLE` transaction does not have, and it
/// holds every instance's delivery back behind the oldest running transaction, so one slow
/// transaction anywhere stalls every live subscription. The lock costs appends instead: only
/// the tail of a writing transaction (from its first append to its commit) is serialised,
/// which the services keep short by recording their changes last.
///
/// A relay whose cursor fell behind the change log's retention horizon (an instance paused
/// for days) delivers what is left; each feed's own catch-up answers `CURSOR_EXPIRED`.
public final class ChangeLogRelay: EventBus {
    private struct State {
        var delivered: Int64
        var isWoken = false
        var waiter: CheckedContinuation<Void, Never>?
        var isStopped = false
    }

    private let pool: any DatabaseReader
    /// The bus of this instance's subscribers, fed by the relay.
    public let local: InProcessEventBus
    /// Changes read from the log per query.
    public let pageSize: Int
    private let state: Mutex<State>

    /// A relay reading `pool`'s change log after `sequence` (the log's latest when the
    /// instance starts: subscribers receive what commits after they subscribe).
    ///
    /// - Parameter pageSize: changes read per query while catching up (at least one).
    public init(pool: any DatabaseReader, local: InProcessEventBus = InProcessEventBus(), after sequence: Int64, pageSize: Int = 256) {
        precondition(pageSize > 0, "a page of changes holds at least one")
        self.pool = pool
        self.local = local
        self.pageSize = pageSize
        self.state = Mutex(State(delivered: sequence))
    }

    /// The sequence of the last change delivered to ``local``.
    public var deliveredSequence: Int64 {
        state.withLock { $0.delivered }
    }

    /// Asks the relay to read the log again. Never waits.
    public func wake() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.isWoken = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// The events are in the change log already: the relay reads them from there, in order
    /// with every other instance's, so this only wakes it.
    public func publish(_ events: [Event]) {
        wake()
    }

    public func subscribe(to topics: Set<Topic>, bufferSize: Int) -> EventSubscription {
        local.subscribe(to: topics, bufferSize: bufferSize)
    }

    /// Reads the log after the delivered sequence, page by page up to its end, and publishes
    /// each page on ``local``; returns how many changes it delivered. One caller at a time:
    /// ``run(clock:retryDelay:)``, or a test driving the relay by hand.
    /// - Throws: ``StoreError``, or `CancellationError` while waiting for a reader.
    @discardableResult
    public func catchUp() async throws -> Int {
        var delivered = 0
        while true {
            let after = deliveredSequence
            let pageSize = pageSize
            let page = try await pool.read { try ChangeLog.changes(after: after, limit: pageSize, in: $0) }
            if let last = page.last {
                local.publish(page)
                state.withLock { $0.delivered = last.sequence }
                delivered += page.count
            }
            if page.count < pageSize { return delivered }
        }
    }

    /// Relays until the task is cancelled: waits to be woken, then catches up. A failed read
    /// (the database unreachable) is tried again after `retryDelay` on `clock`, from the same
    /// sequence, so nothing is skipped.
    public func run(clock: any ServiceClock, retryDelay: Duration) async {
        while await nextWake() {
            do {
                try await catchUp()
            } catch {
                state.withLock { $0.isWoken = true }
                try? await clock.sleep(until: clock.now.adding(retryDelay))
            }
        }
    }

    /// Waits until woken (at once if woken meanwhile); `false` once the task is cancelled.
    private func nextWake() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.isWoken || state.isStopped { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
            return state.withLock { state in
                state.isWoken = false
                return !state.isStopped
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.isStopped = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
