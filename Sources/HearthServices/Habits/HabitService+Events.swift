import FoundationEssentials
import HearthDomain
import HearthStore
import Support

extension HabitService {
    /// An event's fields checked (the day is checked in the transaction, against the owner's today).
    private struct CheckedEvent: Sendable {
        var comment: String
        var photo: (image: ImageInfo, bytes: [UInt8])??
        var location: HabitLocation??
    }

    /// Records doing the viewer's habit (US 02.01 – 02.03, US 06.01).
    /// - Throws: `BAD_USER_INPUT` listing every problem (`input.comment` `TOO_LONG` or
    ///   `INVALID_FORMAT`; `input.photo` `TOO_LARGE` with the limit, `UNSUPPORTED_FORMAT`,
    ///   `INVALID_FORMAT` or `REQUIRED`; `input.location.latitude`, `.longitude`,
    ///   `.accuracyMeters` `OUT_OF_RANGE`; `input.occurredOn` `OUT_OF_RANGE` for a day after
    ///   today in the owner's time zone); `NOT_FOUND` for a habit that is not the viewer's (reason
    ///   `DELETED` for one they deleted); for `draft.id`, as ``ClientIDs/claim(_:_:field:_:at:)``:
    ///   the same id again answers the first event, its photo stored once.
    public func recordHabitEvent(_ draft: HabitEventDraft, viewer: Viewer, clientMutationID: String? = nil) async throws -> HabitEventRecord {
        let valid = try checked(comment: draft.comment, photo: draft.photo.map { .some($0) }, location: draft.location.map { .some($0) })
        let recorded = try await mutate("recordHabitEvent", by: viewer, replaying: clientMutationID, about: draft.habitID) { [self] owner, now in
            let id: String
            switch try ClientIDs.claim(draft.id, .habitEvent, owner, at: now) {
            case .existing(let made): return EventReference(eventID: made)
            case .create(let new): id = new
            }
            guard let habit = try HabitRecord.findOwn(id: draft.habitID, owner) else { throw Self.notFound("habit") }
            let day = try Self.checkedDay(draft.occurredOn, owner, now: now)
            let photoID = try (valid.photo ?? nil).map { try Self.storePhoto($0, owner, at: now) }
            _ = try insertEvent(
                id: id, habitID: draft.habitID, visibility: habit.visibility, day: day, recordedAt: now, comment: valid.comment,
                photoID: photoID, location: valid.location ?? nil, owner, at: now)
            return EventReference(eventID: id)
        }
        return try await Tombstones.answer(about: recorded.eventID, viewer: viewer, in: pool) { try await habitEvent(id: recorded.eventID, viewer: viewer) }
    }

    /// Changes the viewer's habit event `id` (US 02.05): the fields given; an explicit `null`
    /// removes the comment, the photo (deleted with it) or the place. A photo of the same bytes as
    /// the event's keeps that photo; an update that changes nothing writes nothing.
    /// - Throws: as ``recordHabitEvent(_:viewer:clientMutationID:)``; `NOT_FOUND` for an event
    ///   or a new habit that is not the viewer's.
    public func updateHabitEvent(
        id: String, _ changes: HabitEventChanges, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> HabitEventRecord {
        let valid = try checked(comment: changes.comment ?? nil, photo: changes.photo, location: changes.location)
        let updated = try await mutate("updateHabitEvent", by: viewer, replaying: clientMutationID, about: id) { [self] owner, now in
            guard let stored = try HabitEventRecord.findOwn(id: id, owner) else { throw Self.notFound("habit event") }
            let habitID = changes.habitID ?? stored.habitID
            // Moving the event to another habit may show it to followers, or hide it.
            let habits = try Set([stored.habitID, habitID]).map { habitID in
                guard let habit = try HabitRecord.findOwn(id: habitID, owner) else { throw Self.notFound("habit") }
                return habit
            }
            let day = changes.occurredOn == nil ? stored.occurredOn : try Self.checkedDay(changes.occurredOn, owner, now: now)
            let comment = changes.comment == nil ? stored.comment : valid.comment
            var photoID = stored.photo?.id
            if let photo = valid.photo {
                photoID = try photo.map { try Self.storePhoto($0, replacing: stored.photo?.id, owner, at: now) }
            }
            let location = valid.location ?? stored.location
            // Nothing to change (a queued edit sent again after its replay record was pruned):
            // nothing is written, and the answer is the event as it was.
            if habitID == stored.habitID, day == stored.occurredOn, comment == stored.comment, photoID == stored.photo?.id,
               location == stored.location {
                return EventReference(eventID: id)
            }
            try owner.execute(
                """
                UPDATE habit_events SET habit_id = ?, occurred_on = ?, comment = ?, photo_id = ?, latitude = ?, longitude = ?,
                    accuracy_meters = ?, geohash = ?, updated_at = ?
                WHERE id = ? AND user_id = {owner}
                """,
                [
                    habitID, day.description, comment, photoID, location?.latitude, location?.longitude, location?.accuracyMeters,
                    location?.geohash, now, id,
                ])
            if let previous = stored.photo?.id, previous != photoID {
                try owner.execute("DELETE FROM habit_photos WHERE id = ? AND user_id = {owner}", [previous])
            }
            let visibilities = Set(habits.map(\.visibility))
            // The habit it left shows one event fewer, where that habit is seen in the same scope
            // (a private habit's id never goes to followers).
            let left = habits.filter { $0.id == stored.habitID && Self.scope(of: $0.userID, [$0.visibility]) == Self.scope(of: $0.userID, visibilities) }
            try record(
                .habitEventUpdated, HabitChange(userID: owner.key.userID, habitID: habitID, eventID: id), visibilities: visibilities,
                touching: left.map(\.id), in: owner)
            return EventReference(eventID: id)
        }
        return try await Tombstones.answer(about: updated.eventID, viewer: viewer, in: pool) { try await habitEvent(id: updated.eventID, viewer: viewer) }
    }

    /// Deletes the viewer's habit event `id` and its photo (US 02.06).
    /// - Returns: The deleted event's id.
    /// It leaves a tombstone on the owner's topic.
    /// - Throws: `NOT_FOUND` for an event that is not the viewer's (reason `DELETED` when it was
    ///   deleted already).
    public func deleteHabitEvent(id: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> String {
        try await mutate("deleteHabitEvent", by: viewer, replaying: clientMutationID, about: id) { [self] owner, now in
            guard let stored = try HabitEventRecord.findOwn(id: id, owner) else { throw Self.notFound("habit event") }
            try Tombstones.record([id], .habitEvent, scope: .user(owner.key.userID), at: now, in: owner.database)
            let habit = try HabitRecord.findOwn(id: stored.habitID, owner)
            try owner.execute("DELETE FROM habit_events WHERE id = ? AND user_id = {owner}", [id])
            if let photoID = stored.photo?.id {
                try owner.execute("DELETE FROM habit_photos WHERE id = ? AND user_id = {owner}", [photoID])
            }
            try record(
                .habitEventDeleted, HabitChange(userID: owner.key.userID, habitID: stored.habitID, eventID: id),
                visibilities: Set(habit.map { [$0.visibility] } ?? []), in: owner)
            return EventReference(eventID: id)
        }.eventID
    }

    /// The habit event `id` as the viewer may see it (US 02.04): their own, or one of a habit an
    /// accepted follow lets them see (``HabitAudience``).
    /// - Throws: `NOT_FOUND` otherwise.
    public func habitEvent(id: String, viewer: Viewer) async throws -> HabitEventRecord {
        guard let found = try await habitEvents(ids: [id], viewer: viewer)[id] else { throw Self.notFound("habit event") }
        return found
    }

    /// The habit events of `ids` the viewer may see, by id; others are absent.
    public func habitEvents(ids: [String], viewer: Viewer) async throws -> [String: HabitEventRecord] {
        let ids = Array(Set(ids.filter { GlobalID.mayName(.habitEvent, $0) }))
        guard !ids.isEmpty else { return [:] }
        return try await pool.readPreferringCallingThread { database in
            Dictionary(uniqueKeysWithValues: try HabitEventRecord.visible(ids: ids, OwnerScope(Owner(viewer), database)).map { ($0.id, $0) })
        }
    }

    /// `day`, or today in the owner's time zone when `nil`.
    /// - Throws: `BAD_USER_INPUT` `OUT_OF_RANGE` on `input.occurredOn` for a day after today there.
    private static func checkedDay(_ day: CalendarDay?, _ owner: OwnerScope, now: Date) throws -> CalendarDay {
        let today = CalendarDay(containing: now, in: try timeZone(of: owner))
        guard let day else { return today }
        guard day <= today else {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "input.occurredOn", reason: .outOfRange, message: "Record what you have done: \(day) is after today (\(today)).")]))
        }
        return day
    }

    /// The comment, photo and place checked, every problem reported at once; `nil` photo and
    /// place mean "not given", `.some(nil)` "remove".
    private func checked(comment: String?, photo: [UInt8]??, location: LocationInput??) throws -> CheckedEvent {
        var problems = ProblemCollector()
        let comment = problems.check { () throws(FieldProblem) in try HabitRules.comment(comment, field: "input.comment") }
        var valid = CheckedEvent(comment: comment ?? "")
        let rules = configuration.photoRules
        if let photo {
            valid.photo = .some(photo.flatMap { bytes in
                problems.check { () throws(FieldProblem) in try rules.check(bytes, field: "input.photo") }.map { ($0, bytes) }
            })
        }
        if let location {
            valid.location = .some(location.flatMap { place in
                problems.check { () throws(FieldProblem) in
                    try HabitLocation(latitude: place.latitude, longitude: place.longitude, accuracyMeters: place.accuracyMeters, field: "input.location")
                }
            })
        }
        do {
            try problems.throwIfAny()
        } catch var error as ServiceError {
            // A photo of too many bytes says how many are allowed (`extensions.limit`).
            if let bytes = photo ?? nil, bytes.count > rules.maximumBytes { error.limit = rules.maximumBytes }
            throw error
        }
        return valid
    }
}
