import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// The habit service on its own: what each write records in the change log, the owner's local
/// "today" at the edge of a day, and the photo limit at its edge (configurable).
@Suite struct HabitServiceTests {
    /// A 1×1 PNG written by libpng.
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41,
        0x54, 0x78, 0xDA, 0x63, 0x64, 0x60, 0xF8, 0x5F, 0x0F, 0x00, 0x02, 0x87, 0x01, 0x80, 0xEB, 0x47, 0xBA, 0x92, 0x00, 0x00,
        0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    private static func with(
        _ configuration: HabitsConfiguration = HabitsConfiguration(), _ body: (HouseholdsHarness, HabitService) async throws -> Void
    ) async throws {
        try await HouseholdsHarness.with { harness in
            try await body(harness, HabitService(configuration: configuration, households: harness.service))
        }
    }

    private static let draft = HabitDraft(title: "Run", reason: nil, startsOn: CalendarDay("2026-09-01")!, plan: [.monday])

    /// The habit rows of the change log on `topic`: kind, payload and the objects each touched.
    private static func logged(on topic: Topic, _ harness: HouseholdsHarness) async throws -> [(kind: String, change: HabitChange, objects: [String])] {
        try await harness.pool.read { database in
            try database.query(
                "SELECT kind, payload, objects FROM change_log WHERE topic = ? AND kind LIKE 'habit%' ORDER BY sequence", [topic.key]
            ).map { row in
                (
                    try row["kind"] as String, try JSONDecoder().decode(HabitChange.self, from: Data((try row["payload"] as String).utf8)),
                    try JSONDecoder().decode([String].self, from: Data((try row["objects"] as String).utf8))
                )
            }
        }
    }

    @Test func everyWriteOfAFollowerVisibleHabitIsRecordedInTheFollowersScopeWithTheObjectsItTouched() async throws {
        try await Self.with { harness, habits in
            let ana = try await harness.confirmedViewer("ana")
            let habit = try await habits.createHabit(Self.draft, viewer: ana)
            _ = try await habits.updateHabit(id: habit.id, HabitChanges(title: "Run 5 km"), viewer: ana)
            let event = try await habits.recordHabitEvent(HabitEventDraft(habitID: habit.id, comment: "park"), viewer: ana)
            _ = try await habits.updateHabitEvent(id: event.id, HabitEventChanges(comment: .some(nil)), viewer: ana)
            _ = try await habits.deleteHabitEvent(id: event.id, viewer: ana)
            _ = try await habits.deleteHabit(id: habit.id, viewer: ana)
            let logged = try await Self.logged(on: .followers(ana.userID), harness)
            #expect(logged.map(\.kind) == [
                "habit.created", "habit.updated", "habit_event.recorded", "habit_event.updated", "habit_event.deleted", "habit.deleted",
            ])
            #expect(logged.allSatisfy { $0.change.userID == ana.userID && $0.change.habitID == habit.id })
            #expect(logged.map(\.change.eventID) == [nil, nil, event.id, event.id, event.id, nil])
            let habitOnly = [habit.id], both = [event.id, habit.id]
            #expect(logged.map(\.objects) == [habitOnly, habitOnly, both, both, both, habitOnly])
            #expect(try await Self.logged(on: .user(ana.userID), harness).isEmpty)
        }
    }

    @Test func aPrivateHabitIsRecordedForItsOwnerOnlyAndAVisibilityChangeOrADeleteListsEveryEvent() async throws {
        try await Self.with { harness, habits in
            let ana = try await harness.confirmedViewer("ana")
            var diary = Self.draft
            diary.visibility = .private
            let habit = try await habits.createHabit(diary, viewer: ana)
            let first = try await habits.recordHabitEvent(HabitEventDraft(habitID: habit.id), viewer: ana)
            let second = try await habits.recordHabitEvent(HabitEventDraft(habitID: habit.id), viewer: ana)
            #expect(try await Self.logged(on: .followers(ana.userID), harness).isEmpty)
            #expect(try await Self.logged(on: .user(ana.userID), harness).map(\.kind) == ["habit.created", "habit_event.recorded", "habit_event.recorded"])
            let events = [first.id, second.id].sorted()
            // Shown to followers, then hidden again: each time once on the followers' scope, with every event.
            _ = try await habits.updateHabit(id: habit.id, HabitChanges(visibility: .followers), viewer: ana)
            _ = try await habits.updateHabit(id: habit.id, HabitChanges(visibility: .private), viewer: ana)
            let shown = try await Self.logged(on: .followers(ana.userID), harness)
            #expect(shown.map(\.objects) == [[habit.id] + events, [habit.id] + events])
            _ = try await habits.deleteHabit(id: habit.id, viewer: ana)
            let deleted = try await Self.logged(on: .user(ana.userID), harness).last
            #expect(deleted?.kind == "habit.deleted" && deleted?.objects == [habit.id] + events)
        }
    }

    @Test func anEventCountsForTodayInTheOwnersTimeZoneAndNotForTomorrow() async throws {
        try await Self.with { harness, habits in
            // 2026-09-21T14:13:20Z: already the 22nd at UTC+14, still the 21st at UTC-11.
            for (name, zone, today, tomorrow) in [
                ("kiri", "Pacific/Kiritimati", "2026-09-22", "2026-09-23"), ("pago", "Pacific/Pago_Pago", "2026-09-21", "2026-09-22"),
            ] {
                let viewer = try await harness.confirmedViewer(name)
                _ = try await harness.accounts.service.updateProfile(viewer: viewer, ProfileChange(timeZone: .some(zone)))
                let habit = try await habits.createHabit(Self.draft, viewer: viewer)
                #expect(try await habits.recordHabitEvent(HabitEventDraft(habitID: habit.id), viewer: viewer).occurredOn.description == today)
                #expect(try await habits.recordHabitEvent(HabitEventDraft(habitID: habit.id, occurredOn: CalendarDay(today)), viewer: viewer).occurredOn.description == today)
                let refused = await #expect(throws: ServiceError.self) {
                    try await habits.recordHabitEvent(HabitEventDraft(habitID: habit.id, occurredOn: CalendarDay(tomorrow)), viewer: viewer)
                }
                #expect(refused?.problems.first?.field == "input.occurredOn" && refused?.problems.first?.reason == .outOfRange)
            }
        }
    }

    @Test func aPhotoAtTheConfiguredLimitIsKeptAndOneByteMoreIsRefusedWithTheLimitStoringNothing() async throws {
        try await Self.with(HabitsConfiguration(photoRules: ImageRules(maximumBytes: 100))) { harness, habits in
            let ana = try await harness.confirmedViewer("ana")
            let habit = try await habits.createHabit(Self.draft, viewer: ana)
            let padded = { (count: Int) in Self.png + [UInt8](repeating: 0, count: count - Self.png.count) }
            let kept = try await habits.recordHabitEvent(HabitEventDraft(habitID: habit.id, photo: padded(100)), viewer: ana)
            #expect(kept.photo?.byteCount == 100 && kept.photo?.mediaType == "image/png")
            let refused = await #expect(throws: ServiceError.self) {
                try await habits.recordHabitEvent(HabitEventDraft(habitID: habit.id, comment: "big", photo: padded(101)), viewer: ana)
            }
            #expect(refused?.code == .badUserInput && refused?.limit == 100)
            #expect(refused?.problems.first?.field == "input.photo" && refused?.problems.first?.reason == .tooLarge)
            let counts = try await harness.pool.read { database in
                (try database.scalar(Int.self, "SELECT count(*) FROM habit_photos"), try database.scalar(Int.self, "SELECT count(*) FROM habit_events"))
            }
            #expect(counts.0 == 1 && counts.1 == 1, "nothing of the refused event is stored")
            // Replacing a photo deletes the old one.
            _ = try await habits.updateHabitEvent(id: kept.id, HabitEventChanges(photo: .some(Self.png)), viewer: ana)
            #expect(try await harness.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM habit_photos") } == 1)
        }
    }

    @Test func theCommentSearchTakesTheWordLiterallyWhateverFTS5WouldMakeOfIt() async throws {
        try await Self.with { harness, habits in
            let ana = try await harness.confirmedViewer("ana")
            let habit = try await habits.createHabit(Self.draft, viewer: ana)
            for comment in ["NEAR(a b)", "a OR b", "x:y", "run^2", "plain"] {
                _ = try await habits.recordHabitEvent(HabitEventDraft(habitID: habit.id, comment: comment), viewer: ana)
            }
            func found(_ word: String) async throws -> [String] {
                try await habits.habitHistory(HabitHistoryFilter(commentContains: word), viewer: ana).edges.map(\.item.comment)
            }
            #expect(try await found("NEAR(a") == ["NEAR(a b)"])
            #expect(try await found("OR") == ["a OR b"])
            #expect(try await found("x:y") == ["x:y"])
            #expect(try await found("run^2") == ["run^2"])
            #expect(try await found("plain\"") == ["plain"], "a stray quote is doubled inside the phrase")
        }
    }
}

/// The habits-per-user limit at its edge.
@Suite struct HabitLimitTests {
    @Test func oneHabitMoreThanTheLimitIsAConflictAndDeletingOneMakesRoom() async throws {
        try await HouseholdsHarness.with { harness in
            let habits = HabitService(configuration: HabitsConfiguration(maximumHabitsPerUser: 2), households: harness.service)
            let ana = try await harness.confirmedViewer("ana")
            let draft = HabitDraft(title: "Run", reason: nil, startsOn: CalendarDay("2026-09-01")!, plan: [.monday])
            let first = try await habits.createHabit(draft, viewer: ana)
            _ = try await habits.createHabit(draft, viewer: ana)
            let refused = await #expect(throws: ServiceError.self) { try await habits.createHabit(draft, viewer: ana) }
            #expect(refused?.code == .conflict && refused?.reason == .limitReached)
            _ = try await habits.deleteHabit(id: first.id, viewer: ana)
            _ = try await habits.createHabit(draft, viewer: ana)
            let ben = try await harness.confirmedViewer("ben")
            _ = try await habits.createHabit(draft, viewer: ben)
        }
    }
}
