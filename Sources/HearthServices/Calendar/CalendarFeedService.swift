import FoundationEssentials
import HearthDomain
import HearthStore
import Support

/// Calendar export (FR-60): a user's personal chores and, if they choose, their availability
/// events as an RFC 5545 file (``ICalendarDocument``), downloaded signed in or fetched by calendar
/// apps from a private feed URL, `<public base URL>/calendar/<token>.ics`.
///
/// - **The feed's secret.** 32 random bytes, base64url; only its SHA-256 is stored
///   (`calendar_feeds`), so the URL is shown once, when made. Making a feed again replaces the
///   secret (the old URL answers 404 from then on); revoking deletes it.
/// - **What is in it.** Each personal chore not archived: a one-off one at its due time, a
///   recurring one with its RRULE and EXDATE lines in its zone; and, when chosen, each
///   availability event (timed or all-day, with its recurrence; free ones `TRANSP:TRANSPARENT`).
///   UIDs are the objects' ids; SEQUENCE is an event's edit count, a chore's seconds between its
///   creation and its last edit (it grows with every edit a second or more after the one before).
///   DTSTAMP is the last edit, so an unchanged calendar is the same file and the same ETag.
public final class CalendarFeedService: Sendable {
    /// Availability events, and the store and clock through the households service.
    public let availability: AvailabilityService
    /// The public base URL the feed URLs start with (`--public-base-url`).
    public let baseURL: PublicBaseURL

    /// Creates the service.
    public init(availability: AvailabilityService, baseURL: PublicBaseURL) {
        self.availability = availability
        self.baseURL = baseURL
    }

    private var pool: any DatabaseWriter { availability.households.pool }

    /// Makes the viewer's feed, replacing any earlier one (whose URL stops working).
    /// - Returns: The feed's URL (shown only now) and its settings.
    public func createCalendarFeed(includeAvailabilityEvents: Bool, viewer: Viewer) async throws -> (url: String, feed: CalendarFeedRecord) {
        let token = Base64URL.encode(SecureRandom.bytes(32))
        let now = availability.households.clock.storedNow
        try await pool.write { database in
            let owner = OwnerScope(Owner(viewer), database)
            try owner.execute("DELETE FROM calendar_feeds WHERE user_id = {owner}")
            try owner.execute(
                "INSERT INTO calendar_feeds (user_id, token_hash, includes_availability, created_at) VALUES ({owner}, ?, ?, ?)",
                [SHA256.hexDigest(token), includeAvailabilityEvents ? 1 : 0, now])
        }
        return (baseURL.url(for: "/calendar/\(token).ics"), CalendarFeedRecord(includesAvailabilityEvents: includeAvailabilityEvents, createdAt: now))
    }

    /// Deletes the viewer's feed; its URL answers 404 from now on.
    /// - Returns: Whether there was one.
    public func revokeCalendarFeed(viewer: Viewer) async throws -> Bool {
        try await pool.write { database in
            let owner = OwnerScope(Owner(viewer), database)
            try owner.execute("DELETE FROM calendar_feeds WHERE user_id = {owner}")
            return database.changedRowCount > 0
        }
    }

    /// The viewer's feed's settings; `nil` without one.
    public func calendarFeed(viewer: Viewer) async throws -> CalendarFeedRecord? {
        try await pool.readPreferringCallingThread { database in
            try OwnerScope(Owner(viewer), database).queryOne("SELECT includes_availability, created_at FROM calendar_feeds WHERE user_id = {owner}")
                .map { CalendarFeedRecord(includesAvailabilityEvents: try $0["includes_availability"] as Int == 1, createdAt: try $0["created_at"]) }
        }
    }

    /// The file of the feed whose secret is `token`; `nil` when no feed has it (never made,
    /// replaced or revoked).
    public func document(token: String) async throws -> String? {
        try await pool.readPreferringCallingThread { database in
            guard let row = try Self.feed(hash: SHA256.hexDigest(token), in: database) else { return nil }
            let owner = OwnerScope(Owner(authenticated: try row["user_id"]), database)
            return try Self.document(owner, includesAvailability: try row["includes_availability"] as Int == 1)
        }
    }

    /// The viewer's calendar file for download: their personal chores and availability events.
    public func document(viewer: Viewer) async throws -> String {
        try await pool.readPreferringCallingThread { database in
            try Self.document(OwnerScope(Owner(viewer), database), includesAvailability: true)
        }
    }

    /// The feed whose secret hashes to `hash`: its owner and choice. Read before any access exists:
    /// the secret is the credential.
    private static func feed(hash: String, in database: Database) throws -> Row? {
        try database.queryOne("SELECT user_id, includes_availability FROM calendar_feeds WHERE token_hash = ?", [hash])
    }

    /// The owner's file.
    private static func document(_ owner: OwnerScope, includesAvailability: Bool) throws -> String {
        let zone = try owner.timeZone()
        let chores = try ChoreAccess(personal: owner.key).scope(owner.database).decode(
            ChoreRecord.self, "SELECT \(ChoreRecord.columns) FROM chores WHERE {scope} AND deleted_at IS NULL AND archived_at IS NULL ORDER BY id")
        var events = chores.compactMap { event(of: $0, defaultZone: zone) }
        if includesAvailability { events += try AvailabilityEventRecord.all(owner).map(event(of:)) }
        return ICalendarDocument.text(name: "Hearth", events: events)
    }

    /// A chore's event; `nil` for one due a while after each completion (its due times depend
    /// on when it is done).
    private static func event(of chore: ChoreRecord, defaultZone: TimeZoneRules) -> ICalendarEvent? {
        let start: ICalendarEvent.Time
        var rule: RecurrenceRule?
        switch chore.schedule {
        case .once(let due): start = .local(due, .utc)
        case .recurrence(let text):
            guard let parsed = try? RecurrenceRule.parse(text, defaultTimeZone: defaultZone, limits: .unlimited) else { return nil }
            rule = parsed
            start = .local(parsed.start, parsed.timeZone)
        case .afterCompletion: return nil
        }
        return ICalendarEvent(
            uid: chore.id, sequence: max(0, Int(chore.updatedAt.timeIntervalSince(chore.createdAt))), lastModified: chore.updatedAt,
            summary: chore.title, start: start, end: nil, recurrence: rule, isTransparent: true, category: "Chore")
    }

    /// An availability event's event.
    private static func event(of record: AvailabilityEventRecord) -> ICalendarEvent {
        let timing = record.timing
        let (start, end): (ICalendarEvent.Time, ICalendarEvent.Time) =
            switch timing.span {
            case .timed(let start, let end): (.local(start, timing.timeZone), .local(end, timing.timeZone))
            case .allDay(let first, let last): (.day(first), .day(CalendarDay(dayNumber: last.dayNumber + 1)))
            }
        return ICalendarEvent(
            uid: record.id, sequence: record.sequence, lastModified: record.updatedAt, summary: record.title, start: start, end: end,
            recurrence: timing.recurrence, isTransparent: record.availability == .free, category: "Availability")
    }
}

/// A user's calendar feed's settings (the URL is shown only when it is made).
public struct CalendarFeedRecord: Sendable, Hashable {
    /// Whether the feed carries the user's availability events besides their personal chores.
    public var includesAvailabilityEvents: Bool
    /// When it was made.
    public var createdAt: Date
}
