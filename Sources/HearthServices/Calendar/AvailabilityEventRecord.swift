import FoundationEssentials
import HearthDomain
import HearthStore

/// A user's availability event as stored in `availability_events` (migration 0033).
public struct AvailabilityEventRecord: Sendable, Hashable {
    /// `avl_…`.
    public var id: String
    /// The owner.
    public var userID: String
    /// 1–100 characters.
    public var title: String
    /// Busy or free time.
    public var availability: Availability
    /// When it takes place, in its zone, with its recurrence.
    public var timing: AvailabilityTiming
    /// How often it was edited (RFC 5545 SEQUENCE).
    public var sequence: Int
    /// When it was created.
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date

    /// Whether the time is occupied or explicitly free.
    public enum Availability: String, Sendable, Hashable, CaseIterable {
        /// Occupied: a class, a shift, an appointment.
        case busy
        /// Free time the user wants to show.
        case free
    }

    /// The columns ``init(row:)`` reads.
    static let selection =
        "id, user_id, title, availability, all_day, starts_at, ends_at, starts_on, ends_on, time_zone, recurrence, sequence, created_at, updated_at"

    /// Reads an event from `row` (``selection``). A zone the system no longer knows reads as UTC,
    /// and a stored recurrence that no longer parses as a single event, so a read never fails.
    init(row: Row) throws {
        id = try row["id"]
        userID = try row["user_id"]
        title = try row["title"]
        availability = Availability(rawValue: try row["availability"]) ?? .busy
        let zone = TimeZoneRules.named(try row["time_zone"]) ?? .utc
        let span: AvailabilityTiming.Span =
            if try row["all_day"] as Int == 1 {
                .allDay(
                    first: CalendarDay(try row["starts_on"] as String) ?? CalendarDay(dayNumber: 0),
                    last: CalendarDay(try row["ends_on"] as String) ?? CalendarDay(dayNumber: 0))
            } else {
                .timed(start: try row["starts_at"], end: try row["ends_at"])
            }
        let lines: String = try row["recurrence"]
        timing = (try? AvailabilityTiming(span: span, timeZone: zone, recurrenceLines: lines, limits: .unlimited))
            ?? (try! AvailabilityTiming(span: span, timeZone: zone, recurrenceLines: nil))
        sequence = try row["sequence"]
        createdAt = try row["created_at"]
        updatedAt = try row["updated_at"]
    }

    /// The owner's event `id`, or `nil`.
    static func findOwn(id: String, _ owner: OwnerScope) throws -> AvailabilityEventRecord? {
        try owner.queryOne("SELECT \(selection) FROM availability_events WHERE id = ? AND user_id = {owner}", [id]).map(Self.init(row:))
    }

    /// The owner's events of `ids`.
    static func own(ids: [String], _ owner: OwnerScope) throws -> [AvailabilityEventRecord] {
        guard !ids.isEmpty else { return [] }
        return try owner.query(
            "SELECT \(selection) FROM availability_events WHERE user_id = {owner} AND id IN (\(ChoreReferences.placeholders(ids.count)))",
            ChoreReferences.arguments(ids)
        ).map(Self.init(row:))
    }

    /// The owner's events that can have an occurrence overlapping `from` ..< `to` (of kind
    /// `availability` when given), oldest first: read by the span their occurrences fall in
    /// (`occupied_from`, `occupied_until`, migration 0042), so a single event or a finished series
    /// outside the range is not read, and a series that goes on is read however long ago it began.
    static func overlapping(
        _ from: Date, _ to: Date, availability: Availability? = nil, _ owner: OwnerScope
    ) throws -> [AvailabilityEventRecord] {
        // The kind only when given: PostgreSQL cannot type a parameter compared with nothing but NULL.
        var arguments: [(any DatabaseValueConvertible)?] = [from, to]
        if let availability { arguments.append(availability.rawValue) }
        return try owner.query(
            """
            SELECT \(selection) FROM availability_events
            WHERE user_id = {owner} AND (occupied_until IS NULL OR occupied_until > ?) AND (occupied_from IS NULL OR occupied_from < ?)
            \(availability == nil ? "" : "AND availability = ?") ORDER BY created_at, id
            """,
            StatementArguments(arguments)
        ).map(Self.init(row:))
    }

    /// Every event of the owner, oldest first.
    static func all(_ owner: OwnerScope) throws -> [AvailabilityEventRecord] {
        try owner.query("SELECT \(selection) FROM availability_events WHERE user_id = {owner} ORDER BY created_at, id").map(Self.init(row:))
    }
}
