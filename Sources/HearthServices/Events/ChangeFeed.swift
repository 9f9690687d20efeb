/// Every change to some topics after a cursor, without gaps or repeats: the change log
/// replayed from the cursor, then the live bus, and the log again whenever the live
/// subscription overflows. What a sync client or a resumable subscription consumes.
///
/// ```swift
/// let feed = changeLog.feed(of: [.household(id)], after: cursor)
/// for try await event in feed {
///     try await send(event)     // event.sequence is the client's next cursor
/// }
/// ```
///
/// The bus subscription is opened when the feed is made, before the log is first read,
/// so nothing committed in between is lost; events seen both in the log and live are
/// yielded once. Iterate a feed once, from one task. When the task is cancelled the
/// subscription is released and iteration ends (returning `nil`, or throwing
/// `CancellationError` if it was waiting for a database reader); it also throws if
/// reading the log fails, and throws ``ServiceError`` `CURSOR_EXPIRED` when it has to catch
/// up from a cursor older than the change log keeps (`ChangeLog+Retention.swift`).
public struct ChangeFeed: AsyncSequence, Sendable {
    public typealias Element = Event
    public typealias Failure = any Error

    private let changeLog: ChangeLog
    private let subscription: EventSubscription
    private let cursor: Int64
    private let pageSize: Int

    init(changeLog: ChangeLog, subscription: EventSubscription, cursor: Int64, pageSize: Int) {
        precondition(pageSize > 0, "a page of changes holds at least one")
        self.changeLog = changeLog
        self.subscription = subscription
        self.cursor = cursor
        self.pageSize = pageSize
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(feed: self)
    }

    /// Ends the feed at once: its bus subscription is released, and iteration returns `nil`
    /// once it has yielded what it holds (a subscription stream that ends before its task does).
    public func cancel() {
        subscription.cancel()
    }

    /// Yields the changes of one feed in sequence order.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        public typealias Element = Event
        public typealias Failure = any Error

        private let feed: ChangeFeed
        private var live: EventSubscription.Iterator
        /// The sequence of the last event yielded: everything up to it has been seen.
        private var cursor: Int64
        /// Whether the log may hold events after `cursor` that the live stream will not bring.
        private var isCatchingUp = true
        private var page: [Event] = []
        private var position = 0

        fileprivate init(feed: ChangeFeed) {
            self.feed = feed
            self.live = feed.subscription.makeAsyncIterator()
            self.cursor = feed.cursor
        }

        public mutating func next() async throws -> Event? {
            while true {
                if position < page.count {
                    let event = page[position]
                    position += 1
                    cursor = event.sequence
                    return event
                }
                if isCatchingUp {
                    page = try await feed.changeLog.changes(
                        after: cursor, topics: feed.subscription.topics, limit: feed.pageSize
                    )
                    position = 0
                    // A short page reached the end of the log: the live stream takes over.
                    isCatchingUp = page.count == feed.pageSize
                    continue
                }
                switch await live.next() {
                case .event(let event):
                    if event.sequence > cursor {
                        cursor = event.sequence
                        return event
                    }
                case .overflow:
                    isCatchingUp = true
                case nil:
                    return nil
                }
            }
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Event? {
            try await next()
        }
    }
}

extension ChangeLog {
    /// A feed of every change to `topics` with a sequence above `cursor` (0: from the
    /// start of the log; ``latestSequence()``: only what comes next), subscribing now.
    ///
    /// - Parameters:
    ///   - bufferSize: live events held for a slow consumer before it falls back to the log.
    ///   - pageSize: changes read from the log per query while catching up.
    public func feed(of topics: Set<Topic>, after cursor: Int64, bufferSize: Int = 256, pageSize: Int = 256) -> ChangeFeed {
        ChangeFeed(
            changeLog: self,
            subscription: bus.subscribe(to: topics, bufferSize: bufferSize),
            cursor: cursor,
            pageSize: pageSize
        )
    }
}
