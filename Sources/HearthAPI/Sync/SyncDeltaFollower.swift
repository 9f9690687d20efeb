import HearthServices

/// One `syncDeltas` subscriber's position: the stream of `changes` pulled from its cursor whenever
/// the bus says one of its scopes changed.
///
/// No gap, no repeat: the bus subscription is taken before the first read, so a change committed
/// after a read wakes the follower, and every read continues from the cursor the previous one
/// ended at. When the subscriber's scopes change (a scope row on their own topic wakes it), the
/// page read after it says so (``SyncPage/scopes``, read in the page's transaction), and the
/// follower subscribes to the new set and reads again before it waits, so nothing committed
/// meanwhile on a new scope is missed. An overflow of the bus buffer only means "read again": the
/// log has it all.
///
/// Cost per change and subscriber: one read transaction. A page that read to the end of the log
/// (no `hasMore`) in the scopes listened to is not followed by another read before waiting: what
/// commits after its snapshot is published to the subscription, which was taken before it. An
/// event the page already covers (its sequence at or before the page's end: a commit that recorded
/// several rows, or one read before its event was taken) wakes no read either.
struct SyncDeltaFollower: Sendable {
    /// What the subscription reads, and for whom.
    let sync: SyncService
    let viewer: Viewer
    /// Where the next read continues (`nil`: a full resync first).
    private var cursor: String?
    private var subscription: EventSubscription
    private var live: EventSubscription.Iterator
    /// Whether the last read reached the end of the log in the scopes listened to: the next page
    /// can only come after a wake-up.
    private var caughtUp = false
    /// The newest sequence the cursor includes entirely: events up to it need no read.
    private var readThrough: Int64 = 0

    /// A follower of `viewer`'s changes after `cursor`, listening to their scopes now.
    init(sync: SyncService, viewer: Viewer, after cursor: String?) async throws {
        self.sync = sync
        self.viewer = viewer
        self.cursor = cursor
        subscription = Self.subscribe(sync, to: try await sync.scopes(of: viewer))
        live = subscription.makeAsyncIterator()
    }

    /// What to deliver next.
    enum Delivery: Sendable {
        /// A page of changes (never empty).
        case changes(SyncPage)
        /// The cursor is older than the change log keeps: the client must resync in full.
        case mustResync
    }

    /// The next non-empty page after the cursor, waiting for one to commit; `nil` when the
    /// subscription ended (cancelled).
    /// - Throws: what reading the log throws, but `CURSOR_EXPIRED`, which is ``Delivery/mustResync``.
    mutating func next() async throws -> Delivery? {
        while true {
            if caughtUp {
                guard await nextUncovered() else { return nil }
                caughtUp = false
            }
            let page: SyncPage
            do {
                page = try await sync.changes(since: cursor, first: sync.configuration.maximumChangesPerPage, viewer: viewer)
            } catch let error as ServiceError where error.code == .cursorExpired {
                return .mustResync
            }
            cursor = page.endCursor.description
            readThrough = page.endCursor.settledSequence
            if page.scopes != subscription.topics {
                // Listen to the new scopes, then read again: a change committed on one of them
                // after the page's snapshot and before this subscription was published to no one here.
                let previous = subscription
                subscription = Self.subscribe(sync, to: page.scopes)
                live = subscription.makeAsyncIterator()
                previous.cancel()
            } else {
                caughtUp = !page.hasMore
            }
            if !page.entries.isEmpty { return .changes(page) }
        }
    }

    /// Waits for a bus delivery the cursor does not cover: an event after it, or an overflow;
    /// `false` when the subscription ended.
    private mutating func nextUncovered() async -> Bool {
        while let delivery = await live.next() {
            if case .event(let event) = delivery, event.sequence <= readThrough { continue }
            return true
        }
        return false
    }

    /// Ends the bus subscription.
    func cancel() {
        subscription.cancel()
    }

    private static func subscribe(_ sync: SyncService, to scopes: Set<Topic>) -> EventSubscription {
        sync.households.changeLog.bus.subscribe(to: scopes, bufferSize: HearthSchema.subscriptionBufferSize)
    }
}
