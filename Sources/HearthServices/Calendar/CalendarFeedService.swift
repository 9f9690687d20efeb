import FoundationEssentials
import HearthDomain
import HearthStore
import Support

/// Calendar export (FR-60): a user's personal chores and, if they choose, the household chores
/// assigned to them and their availability events as an RFC 5545 file (``ICalendarDocument``), downloaded signed in or fetched by calendar
/// apps from a private feed URL, `<public base URL>/calendar/<token>.ics`.
///
/// - **The feed's secret.** 32 random bytes, base64url; only its SHA-256 is stored
///   (`calendar_feeds`), so the URL is shown once, when made. Making a feed again replaces the
///   secret (the old URL answers 404 from then on); revoking deletes it.
/// - **What is in it.** Each personal chore not archived (``CalendarChoreEvents``: a one-off one at
///   its due time, a recurring one with its RRULE and EXDATE lines in its zone, one due after each
///   completion at its next due time); when chosen, the chores of the user's households assigned
///   to them (the same way, recurrences read in the household's zone), and each availability
///   event (timed or all-day, with its recurrence; free ones `TRANSP:TRANSPARENT`). UIDs are the
///   objects' ids; SEQUENCE counts the edits that change what the event says (see
///   ``CalendarChoreEvents``; an availability event's every edit). DTSTAMP is the last edit, so an
///   unchanged calendar is the same file and the same ETag.
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
    public func createCalendarFeed(
        includeAvailabilityEvents: Bool, includeHouseholdChores: Bool, viewer: Viewer
    ) async throws -> (url: String, feed: CalendarFeedRecord) {
        let token = Base64URL.encode(SecureRandom.bytes(32))
        let now = availability.households.clock.storedNow
        try await pool.write { database in
            let owner = OwnerScope(Owner(viewer), database)
            try owner.execute("DELETE FROM calendar_feeds WHERE user_id = {owner}")
            try owner.execute(
                """
                INSERT INTO calendar_feeds (user_id, token_hash, includes_availability, includes_household_chores, created_at)
                VALUES ({owner}, ?, ?, ?, ?)
                """,
                [SHA256.hexDigest(token), includeAvailabilityEvents ? 1 : 0, includeHouseholdChores ? 1 : 0, now])
        }
        let feed = CalendarFeedRecord(
            includesAvailabilityEvents: includeAvailabilityEvents, includesHouseholdChores: includeHouseholdChores, createdAt: now)
        return (baseURL.url(for: "/calendar/\(token).ics"), feed)
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
            try OwnerScope(Owner(viewer), database).queryOne(
                "SELECT includes_availability, includes_household_chores, created_at FROM calendar_feeds WHERE user_id = {owner}"
            ).map(CalendarFeedRecord.init(row:))
        }
    }

    /// The file of the feed whose secret is `token`; `nil` when no feed has it (never made,
    /// replaced or revoked).
    public func document(token: String) async throws -> String? {
        try await pool.readPreferringCallingThread { database in
            guard let row = try Self.feed(hash: SHA256.hexDigest(token), in: database) else { return nil }
            let owner = OwnerScope(Owner(authenticated: try row["user_id"]), database)
            let feed = try CalendarFeedRecord(row: row)
            return try Self.document(owner, includesAvailability: feed.includesAvailabilityEvents, includesHouseholdChores: feed.includesHouseholdChores)
        }
    }

    /// The viewer's calendar file for download: their personal chores, the household chores
    /// assigned to them and their availability events.
    public func document(viewer: Viewer) async throws -> String {
        try await pool.readPreferringCallingThread { database in
            try Self.document(OwnerScope(Owner(viewer), database), includesAvailability: true, includesHouseholdChores: true)
        }
    }

    /// The feed whose secret hashes to `hash`: its owner and choice. Read before any access exists:
    /// the secret is the credential.
    private static func feed(hash: String, in database: Database) throws -> Row? {
        try database.queryOne(
            "SELECT user_id, includes_availability, includes_household_chores, created_at FROM calendar_feeds WHERE token_hash = ?", [hash])
    }

    /// The owner's file: their personal chores, and what the flags include.
    private static func document(_ owner: OwnerScope, includesAvailability: Bool, includesHouseholdChores: Bool) throws -> String {
        var events = try choreEvents(owner, includesHouseholdChores: includesHouseholdChores)
        if includesAvailability { events += try AvailabilityEventRecord.all(owner).map(event(of:)) }
        return ICalendarDocument.text(name: "Hearth", events: events)
    }

    /// The owner's personal chores as events and, when `includesHouseholdChores`, the chores of
    /// their households assigned to them (``CalendarChoreEvents``): what the feed and the export to
    /// Google Calendar carry.
    static func choreEvents(_ owner: OwnerScope, includesHouseholdChores: Bool) throws -> [ICalendarEvent] {
        let database = owner.database
        var events = try CalendarChoreEvents(scope: ChoreAccess(personal: owner.key).scope(database), defaultZone: try owner.timeZone()).events()
        if includesHouseholdChores {
            for membership in try HouseholdAccess.memberships(of: owner.key, in: database) {
                let chores = CalendarChoreEvents(
                    scope: ChoreAccess(membership.access).scope(database), defaultZone: try RecurrenceZone.timeZone(named: membership.household.timeZone))
                events += try chores.events(assignedTo: membership.access.memberID)
            }
        }
        return events
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
    /// Whether it carries the household chores assigned to the user (FR-60).
    public var includesHouseholdChores: Bool
    /// When it was made.
    public var createdAt: Date

    /// Settings with these values.
    init(includesAvailabilityEvents: Bool, includesHouseholdChores: Bool, createdAt: Date) {
        self.includesAvailabilityEvents = includesAvailabilityEvents
        self.includesHouseholdChores = includesHouseholdChores
        self.createdAt = createdAt
    }

    /// The settings in a `calendar_feeds` row.
    init(row: Row) throws {
        self.init(
            includesAvailabilityEvents: try row["includes_availability"] as Int == 1,
            includesHouseholdChores: try row["includes_household_chores"] as Int == 1, createdAt: try row["created_at"])
    }
}
