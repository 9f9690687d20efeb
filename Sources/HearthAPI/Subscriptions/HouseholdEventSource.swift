import HearthServices

/// A household's topic as the source of a subscription field, for one subscriber: what
/// `householdEvents` and `choreEvents` share (each maps events to its own values).
///
/// - **Subscribing** needs active membership: non-members and unknown ids get the same
///   `NOT_FOUND`. The bus subscription (or change feed) is taken before the membership is read
///   (``HouseholdService/startEvents(viewer:householdID:after:)``), so a departure committed after
///   that read is certainly delivered to the stream; one committed before it makes the check fail.
/// - **Resuming** (`after`, a `sequence` the client received): the events after it are replayed from
///   the change log, then the stream continues live without a gap or a repeat (``ChangeFeed``); a
///   cursor older than the change log keeps is `CURSOR_EXPIRED` when subscribing.
/// - **Membership ends** with the subscriber's own `member.left` or `member.removed`, or
///   `household.deleted`: the stream ends right after that event (delivering it if the field maps it
///   to a value). The bus delivers every subscriber's events in commit order, so the departure
///   precedes everything committed after it: this per-event check costs nothing. A departure at or
///   before the sequence read with the membership belongs to an earlier membership (a replay of
///   someone who left and came back) and ends nothing.
/// - **Falling behind** (events dropped from a live subscription): the first event after the gap is
///   delivered only after the membership is read again, and the stream ends without it when the
///   membership is gone (the departure may have been dropped).
enum HouseholdEventSource {
    /// What a field makes of one event for the subscriber (their member record as checked when
    /// subscribing): a value to deliver, or `nil` to skip it.
    typealias Transform = @Sendable (_ event: Event, _ missedEvents: Bool, _ member: MemberRecord) async throws -> (any Sendable)?

    /// The stream of `householdID`'s events for `subscriber`, mapped by `transform`, from the
    /// change-log sequence `cursor` when given, else from now.
    /// - Throws: `NOT_FOUND` when they are not a member, `CURSOR_EXPIRED` for a cursor too old.
    static func stream(
        households: HouseholdService, subscriber: Viewer, householdID: String, after cursor: Int64?, _ transform: @escaping Transform
    ) async throws -> AsyncThrowingStream<any Sendable, any Error> {
        // The service's change log: the subscription cannot listen elsewhere.
        let changeLog = households.changeLog
        let topics: Set<Topic> = [.household(householdID)]
        if let cursor {
            let feed = changeLog.feed(of: topics, after: cursor, bufferSize: HearthSchema.subscriptionBufferSize)
            let start = try await started(households, subscriber, householdID, cursor, cancel: feed.cancel)
            return EventStream.steps(feed) { event, missedEvents in
                try await step(event, missedEvents, start, households, subscriber, transform)
            }
        }
        let subscription = changeLog.bus.subscribe(to: topics, bufferSize: HearthSchema.subscriptionBufferSize)
        let start = try await started(households, subscriber, householdID, nil, cancel: subscription.cancel)
        return EventStream.steps(subscription) { event, missedEvents in
            try await step(event, missedEvents, start, households, subscriber, transform)
        }
    }

    /// The membership check (and cursor check); `cancel` releases the subscription when it fails.
    private static func started(
        _ households: HouseholdService, _ subscriber: Viewer, _ householdID: String, _ cursor: Int64?, cancel: @Sendable () -> Void
    ) async throws -> HouseholdService.EventsStart {
        do {
            return try await households.startEvents(viewer: subscriber, householdID: householdID, after: cursor)
        } catch {
            cancel()
            throw error
        }
    }

    /// What the stream does with one event (see ``HouseholdEventSource``).
    private static func step(
        _ event: Event, _ missedEvents: Bool, _ start: HouseholdService.EventsStart, _ households: HouseholdService, _ subscriber: Viewer,
        _ transform: Transform
    ) async throws -> EventStream.Step {
        let member = start.access.member
        if event.sequence > start.sequence, try endsMembership(event, of: subscriber) {
            return try await transform(event, missedEvents, member).map { .last($0) } ?? .end
        }
        if missedEvents, try await !households.isActiveMember(subscriber, of: start.access.householdID) { return .end }
        return try await transform(event, missedEvents, member).map { .next($0) } ?? .skip
    }

    /// Whether `event` ends `subscriber`'s membership: they left or were removed, or the household
    /// was deleted.
    /// - Throws: `DecodingError` when a membership event's payload is not a ``HouseholdChange``.
    static func endsMembership(_ event: Event, of subscriber: Viewer) throws -> Bool {
        switch event.kind {
        case .householdDeleted: true
        case .memberLeft, .memberRemoved: try event.payload.decode(HouseholdChange.self).userID == subscriber.userID
        default: false
        }
    }
}
