import FoundationEssentials
import HearthDomain
import HearthStore

/// A user's availability events (FR-64): busy or free time (classes, work shifts, appointments),
/// single or recurring, shown in their calendar (``CalendarService``) and marking occupied time.
///
/// - **Ownership.** Events belong to one user; only they read or change them. Anyone else's ids
///   answer `NOT_FOUND`.
/// - **Offline.** Creates take a client-made id (``ClientIDs``), every mutation a
///   `clientMutationId`; a delete leaves a tombstone, and deletes win over later edits.
/// - **Changes** are recorded on the owner's topic (`user:<id>`, ``AvailabilityEventChange``), so
///   offline sync carries them (``SyncScopes``).
/// - **Time.** A timed event's start and end are instants; an all-day event's are days in its zone.
///   A recurrence (RRULE and EXDATE lines) repeats it from its start, on the wall clock of its
///   zone (the owner's unless the input names one), expanded by ``AvailabilityTiming``.
public final class AvailabilityService: Sendable {
    /// The limits.
    public let configuration: CalendarConfiguration
    /// The change log, mutation replays and the store (through the households service).
    public let households: HouseholdService

    /// Creates the service.
    public init(configuration: CalendarConfiguration, households: HouseholdService) {
        self.configuration = configuration
        self.households = households
    }

    var pool: any DatabaseWriter { households.pool }

    /// What an availability mutation's replay record keeps: the event it changed.
    struct EventReference: Codable, Sendable {
        var eventID: String
    }

    /// Creates an availability event of the viewer's.
    /// - Throws: `BAD_USER_INPUT` listing every problem (`input.title`; `input.startsAt` `REQUIRED`
    ///   or `NOT_ALLOWED`; `input.endsAt`/`input.endsOn` `OUT_OF_RANGE`; `input.timeZone`
    ///   `UNKNOWN_VALUE`; `input.recurrence` naming the part), `CONFLICT` `LIMIT_REACHED` at
    ///   ``CalendarConfiguration/maximumEventsPerUser``; for `draft.id`, as ``ClientIDs``.
    public func createAvailabilityEvent(_ draft: AvailabilityEventDraft, viewer: Viewer, clientMutationID: String? = nil) async throws -> AvailabilityEventRecord {
        let created = try await households.mutateOwn("createAvailabilityEvent", by: viewer, replaying: clientMutationID) { [self] owner, now in
            let id: String
            switch try ClientIDs.claim(draft.id, .availabilityEvent, owner, at: now) {
            case .existing(let made): return EventReference(eventID: made)
            case .create(let new): id = new
            }
            let valid = try Self.checked(
                title: draft.title, span: (draft.startsAt, draft.endsAt, draft.startsOn, draft.endsOn), timeZone: draft.timeZone,
                recurrence: draft.recurrence, owner: owner)
            let count = try owner.scalar(Int.self, "SELECT count(*) FROM availability_events WHERE user_id = {owner}") ?? 0
            guard count < configuration.maximumEventsPerUser else {
                throw ServiceError(.conflict, reason: .limitReached, "You have \(count) availability events, the most allowed. Delete one first.")
            }
            let columns = Self.columns(of: valid.timing)
            try owner.execute(
                """
                INSERT INTO availability_events (id, user_id, title, availability, all_day, starts_at, ends_at, starts_on, ends_on, time_zone,
                    recurrence, occupied_from, occupied_until, sequence, created_at, updated_at)
                VALUES (?, {owner}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)
                """,
                StatementArguments([id, valid.title, (draft.availability ?? .busy).rawValue] + columns + [now, now]))
            try record(.availabilityEventCreated, id, owner)
            return EventReference(eventID: id)
        }
        return try await Tombstones.answer(about: created.eventID, viewer: viewer, in: pool) { try await event(id: created.eventID, viewer: viewer) }
    }

    /// Changes the viewer's event `id`: the fields given, checked as on creation; its SEQUENCE
    /// goes up by one.
    /// - Throws: as ``createAvailabilityEvent(_:viewer:clientMutationID:)``; `NOT_FOUND` for an
    ///   event that is not the viewer's (`DELETED` when they deleted it).
    public func updateAvailabilityEvent(
        id: String, _ changes: AvailabilityEventChanges, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> AvailabilityEventRecord {
        let updated = try await households.mutateOwn("updateAvailabilityEvent", by: viewer, replaying: clientMutationID, about: id) { owner, now in
            guard GlobalID.mayName(.availabilityEvent, id), let stored = try AvailabilityEventRecord.findOwn(id: id, owner) else {
                throw Self.notFound
            }
            var span: (Date?, Date?, CalendarDay?, CalendarDay?)
            switch (changes.startsAt, changes.endsAt, changes.startsOn, changes.endsOn, stored.timing.span) {
            case (nil, nil, nil, nil, .timed(let start, let end)): span = (start, end, nil, nil)
            case (nil, nil, nil, nil, .allDay(let first, let last)): span = (nil, nil, first, last)
            default: span = (changes.startsAt, changes.endsAt, changes.startsOn, changes.endsOn)
            }
            let recurrence = changes.recurrence ?? stored.timing.recurrenceLines
            let valid = try Self.checked(
                title: changes.title ?? stored.title, span: span, timeZone: changes.timeZone ?? stored.timing.timeZone.identifier,
                recurrence: recurrence, owner: owner)
            try owner.execute(
                """
                UPDATE availability_events SET title = ?, availability = ?, all_day = ?, starts_at = ?, ends_at = ?, starts_on = ?, ends_on = ?,
                    time_zone = ?, recurrence = ?, occupied_from = ?, occupied_until = ?, sequence = sequence + 1, updated_at = ?
                WHERE id = ? AND user_id = {owner}
                """,
                StatementArguments([valid.title, (changes.availability ?? stored.availability).rawValue] + Self.columns(of: valid.timing) + [now, id]))
            try self.record(.availabilityEventUpdated, id, owner)
            return EventReference(eventID: id)
        }
        return try await Tombstones.answer(about: updated.eventID, viewer: viewer, in: pool) { try await event(id: updated.eventID, viewer: viewer) }
    }

    /// Deletes the viewer's event `id`, leaving a tombstone on their topic.
    /// - Returns: The deleted event's id.
    /// - Throws: `NOT_FOUND` for an event that is not the viewer's (`DELETED` when deleted already).
    public func deleteAvailabilityEvent(id: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> String {
        try await households.mutateOwn("deleteAvailabilityEvent", by: viewer, replaying: clientMutationID, about: id) { owner, now in
            guard GlobalID.mayName(.availabilityEvent, id), try AvailabilityEventRecord.findOwn(id: id, owner) != nil else { throw Self.notFound }
            try Tombstones.record([id], .availabilityEvent, scope: .user(owner.key.userID), at: now, in: owner.database)
            try owner.execute("DELETE FROM availability_events WHERE id = ? AND user_id = {owner}", [id])
            try self.record(.availabilityEventDeleted, id, owner)
            return EventReference(eventID: id)
        }.eventID
    }

    /// The viewer's event `id`.
    /// - Throws: `NOT_FOUND` for anything else.
    public func event(id: String, viewer: Viewer) async throws -> AvailabilityEventRecord {
        guard let found = try await events(ids: [id], viewer: viewer)[id] else { throw Self.notFound }
        return found
    }

    /// The viewer's events among `ids`, by id; others are absent.
    public func events(ids: [String], viewer: Viewer) async throws -> [String: AvailabilityEventRecord] {
        let ids = Array(Set(ids.filter { GlobalID.mayName(.availabilityEvent, $0) }))
        guard !ids.isEmpty else { return [:] }
        return try await pool.readPreferringCallingThread { database in
            Dictionary(uniqueKeysWithValues: try AvailabilityEventRecord.own(ids: ids, OwnerScope(Owner(viewer), database)).map { ($0.id, $0) })
        }
    }

    /// The error of an id that names no event of the viewer's.
    static let notFound = ServiceError(.notFound, "No such availability event.")

    /// An event's fields checked, every problem reported at once.
    private static func checked(
        title: String, span: (Date?, Date?, CalendarDay?, CalendarDay?), timeZone: String?, recurrence: String?, owner: OwnerScope
    ) throws -> (title: String, timing: AvailabilityTiming) {
        var problems = ProblemCollector()
        let title = problems.check { () throws(FieldProblem) in try AvailabilityRules.title(title, field: "input.title") }
        let span = problems.check { () throws(FieldProblem) in try AvailabilityRules.span(start: span.0, end: span.1, firstDay: span.2, lastDay: span.3) }
        var zone: TimeZoneRules? = try owner.timeZone()
        if let timeZone {
            zone = TimeZoneRules.named(timeZone)
            if zone == nil {
                problems.add(FieldProblem(field: "input.timeZone", reason: .unknownValue, message: "\(timeZone) is not a time zone this server knows."))
            }
        }
        var timing: AvailabilityTiming?
        if let span, let zone {
            timing = problems.check { () throws(FieldProblem) in
                do throws(RecurrenceError) {
                    return try AvailabilityTiming(span: span, timeZone: zone, recurrenceLines: recurrence)
                } catch {
                    throw error.problem(field: "input.recurrence")
                }
            }
        }
        try problems.throwIfAny()
        return (title!, timing!)
    }

    /// The values of the span, zone and recurrence columns, in the order the statements name them:
    /// `all_day`, `starts_at`, `ends_at`, `starts_on`, `ends_on`, `time_zone`, `recurrence`, and the
    /// span all occurrences fall in, `occupied_from` and `occupied_until` (migration 0042).
    private static func columns(of timing: AvailabilityTiming) -> [(any DatabaseValueConvertible)?] {
        let span: [(any DatabaseValueConvertible)?] =
            switch timing.span {
            case .timed(let start, let end): [0, start, end, nil, nil]
            case .allDay(let first, let last): [1, nil, nil, first.description, last.description]
            }
        return span + [timing.timeZone.identifier, timing.recurrenceLines, timing.firstStart, timing.lastEnd]
    }

    /// Records `kind` of event `id` on the owner's topic, to publish after commit.
    private func record(_ kind: EventKind, _ id: String, _ owner: OwnerScope) throws {
        try households.changeLog.record(
            topic: .user(owner.key.userID), kind: kind, payload: AvailabilityEventChange(userID: owner.key.userID, eventID: id), in: owner.database)
    }
}
