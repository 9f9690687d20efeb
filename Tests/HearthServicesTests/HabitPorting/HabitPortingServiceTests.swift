import Foundation
import HearthDomain
import HearthServices
import HearthStore
import Support
import Synchronization
import Testing
import TestFixtures
import TestPython

/// The export streams in chunks as it reads; the import refuses archives that unpack too far
/// and is idempotent with the full-text index of comments kept in step.
@Suite struct HabitPortingServiceTests {
    /// A signed-in viewer of the harness, and their user id.
    static func viewer(_ harness: AccountsHarness, _ username: String = "ana") async throws -> Viewer {
        let (_, session) = try await harness.register(username)
        return try await harness.service.authenticate(accessToken: session.accessToken)
    }

    static func insertEvents(_ count: Int, for viewer: Viewer, in pool: any DatabaseWriter) throws {
        let now = "2025-01-02T08:00:00.000Z"
        try pool.write { database in
            try database.execute(
                """
                INSERT INTO habits (id, user_id, title, reason, starts_on, plan, created_at, updated_at)
                VALUES ('hab_1', ?, 'Walk', '', '2024-01-01', 127, ?, ?)
                """, [viewer.userID, now, now])
            for index in 0..<count {
                let day = DayText.text(DayText.dayNumber("2024-01-01")! + index)
                try database.execute(
                    """
                    INSERT INTO habit_events (id, habit_id, user_id, occurred_on, recorded_at, comment, created_at, updated_at)
                    VALUES (?, 'hab_1', ?, ?, ?, ?, ?, ?)
                    """, ["hev_\(index)", viewer.userID, day, now, "walk \(index), \"brisk\"", now, now])
            }
        }
    }

    static let exportWorkers = WorkerPool(label: "test-export", concurrency: 2, queueLimit: 8)

    @Test func anExportIsDeliveredInChunksAsItsRowsAreReadNotWhole() async throws {
        try await AccountsHarness.with { harness in
            let viewer = try await Self.viewer(harness)
            try Self.insertEvents(300, for: viewer, in: harness.pool)
            let chunks = Mutex<[[UInt8]]>([])
            try await HabitExporter(pool: harness.pool, clock: harness.clock, workers: Self.exportWorkers, chunkSize: 1024)
                .export(.eventsCSV, of: viewer) { chunk in chunks.withLock { $0.append(chunk) }; return true }
            let whole = Mutex<[UInt8]>([])
            try await HabitExporter(pool: harness.pool, clock: harness.clock, workers: Self.exportWorkers, chunkSize: 1 << 24)
                .export(.eventsCSV, of: viewer) { chunk in whole.withLock { $0 += chunk }; return true }
            let parts = chunks.withLock { $0 }
            #expect(parts.count > 20)
            // Each chunk is sent once it reaches the chunk size, so none holds much more than that.
            #expect(parts.allSatisfy { $0.count < 1024 + 512 })
            #expect(parts.flatMap { $0 } == whole.withLock { $0 })
            #expect(try CSVParser.records(whole.withLock { $0 }).count == 301)
        }
    }

    @Test func anExportStopsWhenItsReceiverHasGone() async throws {
        try await AccountsHarness.with { harness in
            let viewer = try await Self.viewer(harness)
            try Self.insertEvents(300, for: viewer, in: harness.pool)
            let delivered = Mutex(0)
            await #expect(throws: CancellationError.self) {
                try await HabitExporter(pool: harness.pool, clock: harness.clock, workers: Self.exportWorkers, chunkSize: 1024)
                    .export(.eventsCSV, of: viewer) { _ in delivered.withLock { $0 += 1; return $0 < 3 } }
            }
            #expect(delivered.withLock { $0 } == 3)
        }
    }

    @Test func anotherUsersRowsAreNeverExported() async throws {
        try await AccountsHarness.with { harness in
            let ana = try await Self.viewer(harness, "ana")
            let ben = try await Self.viewer(harness, "ben")
            try Self.insertEvents(3, for: ana, in: harness.pool)
            let output = Mutex<[UInt8]>([])
            try await HabitExporter(pool: harness.pool, clock: harness.clock, workers: Self.exportWorkers).export(.json, of: ben) { chunk in output.withLock { $0 += chunk }; return true }
            let document = try JSONSerialization.jsonObject(with: Data(output.withLock { $0 })) as? [String: Any]
            #expect((document?["habits"] as? [Any])?.isEmpty == true)
            #expect((document?["events"] as? [Any])?.isEmpty == true)
            #expect((document?["user"] as? [String: Any])?["username"] as? String == "ben")
        }
    }

    static func importer(
        _ harness: HouseholdsHarness, limits: HabitPortingConfiguration = HabitPortingConfiguration(), habits: HabitsConfiguration = HabitsConfiguration()
    ) -> LoopImporter {
        LoopImporter(
            habits: HabitService(configuration: habits, households: harness.service),
            workers: WorkerPool(label: "test-import", concurrency: 1, queueLimit: 4), configuration: limits)
    }

    static func zip(_ files: [String: String]) throws -> [UInt8] {
        try TestPython.zip(files)
    }

    static let habits = "Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color\n001,Run,YES_NO,Did you run?,,1,1,#E53935\n"

    /// An archive of habits `names` (daily), each done on `days`.
    static func archive(_ names: [String], days: [String] = ["2024-01-01"]) throws -> [UInt8] {
        var files = ["Habits.csv": "Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color\n"]
        for (index, name) in names.enumerated() {
            let position = String(format: "%03d", index + 1)
            files["Habits.csv"]! += "\(position),\(name),YES_NO,,,1,1,#E53935\n"
            files["\(position) \(name)/Checkmarks.csv"] = "Date,Value,Notes\n" + days.map { "\($0),YES_MANUAL,\n" }.joined()
        }
        return try zip(files)
    }

    static func refusal(_ body: () async throws -> Void) async -> ServiceError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? ServiceError
        }
    }

    static func count(_ table: String, _ harness: HouseholdsHarness) async throws -> Int {
        try await harness.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM \(table)") } ?? -1
    }

    @Test func anArchiveUnpackingPastSixteenTimesTheLimitIsRefusedAsTooLarge() async throws {
        try await HouseholdsHarness.with { harness in
            let viewer = try await harness.confirmedViewer("ana")
            let importer = Self.importer(harness, limits: HabitPortingConfiguration(maxImportBytes: 1024))
            let checkmarks = "Date,Value,Notes\n" + String(repeating: "2024-01-01,2,\n", count: 1200)  // 16,817 bytes, 16 KiB is 16,384
            let archive = try Self.zip(["Habits.csv": Self.habits, "001 Run/Checkmarks.csv": checkmarks])
            #expect(archive.count < 1024)
            let error = await Self.refusal { _ = try await importer.importArchive(archive, for: viewer, clientMutationID: nil, field: "input.file") }
            #expect(error?.problems.first?.reason == .tooLarge)
            #expect(error?.limit == 16 * 1024)
            let fits = try Self.zip(["Habits.csv": Self.habits, "001 Run/Checkmarks.csv": "Date,Value,Notes\n2024-01-01,2,first run\n"])
            let report = try await importer.importArchive(fits, for: viewer, clientMutationID: nil, field: "input.file")
            #expect(report.habitsCreated == 1 && report.eventsCreated == 1)
        }
    }

    @Test func aSecondImportCreatesNothingAndALaterExportAddsOnlyItsNewDays() async throws {
        try await HouseholdsHarness.with { harness in
            let viewer = try await harness.confirmedViewer("ana")
            let importer = Self.importer(harness)
            let first = try Self.zip(["Habits.csv": Self.habits, "001 Run/Checkmarks.csv": "Date,Value,Notes\n2024-01-02,2,\n2024-01-01,2,easy run\n"])
            let later = try Self.zip(["Habits.csv": Self.habits, "001 Run/Checkmarks.csv": "Date,Value,Notes\n2024-01-03,2,\n2024-01-02,2,\n2024-01-01,2,easy run\n"])
            let created = try await importer.importArchive(first, for: viewer, clientMutationID: nil, field: "input.file")
            #expect((created.habitsCreated, created.eventsCreated) == (1, 2))
            #expect(created.createdHabitIDs.count == 1)
            let again = try await importer.importArchive(first, for: viewer, clientMutationID: nil, field: "input.file")
            #expect((again.habitsCreated, again.habitsUnchanged, again.eventsCreated, again.eventsUnchanged) == (0, 1, 0, 2))
            #expect(again.createdHabitIDs.isEmpty)
            let grown = try await importer.importArchive(later, for: viewer, clientMutationID: nil, field: "input.file")
            #expect((grown.habitsCreated, grown.habitsUnchanged, grown.eventsCreated, grown.eventsUnchanged) == (0, 1, 1, 2))
            #expect(try await Self.count("habit_events", harness) == 3)
        }
    }

    @Test func importedHabitsAndEventsAreCreatedAndLoggedAsTheAPIsAre() async throws {
        try await HouseholdsHarness.with { harness in
            let viewer = try await harness.confirmedViewer("ana")
            let importer = Self.importer(harness)
            let typed = try await importer.habits.createHabit(
                HabitDraft(title: "Walk", reason: nil, startsOn: CalendarDay("2024-01-01")!, plan: Weekday.allCases), viewer: viewer)
            let report = try await importer.importArchive(
                try Self.archive(["Run"], days: ["2024-01-01", "2024-01-02"]), for: viewer, clientMutationID: nil, field: "input.file")
            let imported = try await importer.habits.habit(id: try #require(report.createdHabitIDs.first), viewer: viewer)
            #expect((imported.title, imported.plan, imported.visibility, imported.userID) == ("Run", typed.plan, typed.visibility, typed.userID))
            #expect(imported.startsOn.description == "2024-01-01")
            let logged = try await harness.pool.read { database in
                // Follower-visible habits (the default, as the API's) are logged where followers read.
                try database.query(
                    "SELECT kind, payload FROM change_log WHERE topic = ? AND kind LIKE 'habit%' ORDER BY sequence", ["followers:" + viewer.userID])
                    .map { (try $0["kind"] as String, try JSONDecoder().decode(HabitChange.self, from: Data((try $0["payload"] as String).utf8))) }
            }
            #expect(logged.map(\.0) == ["habit.created", "habit.created", "habit_event.recorded", "habit_event.recorded"])
            #expect(logged.dropFirst().allSatisfy { $0.1.habitID == imported.id && $0.1.userID == viewer.userID })
            let eventIDs = try await harness.pool.read { try $0.query("SELECT id FROM habit_events ORDER BY occurred_on").map { try $0["id"] as String } }
            #expect(logged.compactMap(\.1.eventID) == eventIDs)
            _ = try await importer.importArchive(
                try Self.archive(["Run"], days: ["2024-01-01", "2024-01-02"]), for: viewer, clientMutationID: nil, field: "input.file")
            #expect(try await Self.count("change_log WHERE kind LIKE 'habit%'", harness) == 4, "nothing new, nothing logged")
        }
    }

    @Test func daysAreTheUsersCalendarDaysAndAnEventIsRecordedAtItsLocalNoon() async throws {
        try await HouseholdsHarness.with { harness in
            // The harness's now, 2026-09-21T14:13:20Z, is already the 22nd at UTC+14.
            let viewer = try await harness.confirmedViewer("kiri")
            _ = try await harness.accounts.service.updateProfile(viewer: viewer, ProfileChange(timeZone: .some("Pacific/Kiritimati")))
            let importer = Self.importer(harness)
            var files = [
                "Habits.csv": "Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color\n001,Run,YES_NO,,,1,1,#E53935\n002,Swim,YES_NO,,,1,1,#E53935\n",
            ]
            files["001 Run/Checkmarks.csv"] = "Date,Value,Notes\n2026-09-23,YES_MANUAL,\n2026-09-22,YES_MANUAL,\n2026-09-21,YES_MANUAL,\n"
            files["002 Swim/Checkmarks.csv"] = "Date,Value,Notes\n"
            let report = try await importer.importArchive(try Self.zip(files), for: viewer, clientMutationID: nil, field: "input.file")
            #expect(report.eventsCreated == 2)
            #expect(report.skipped.map { "\($0.habitName) \($0.date ?? "-") \($0.reason.rawValue) \($0.eventsSkipped)" } == ["Run 2026-09-23 FUTURE_DAY 1"])
            #expect(report.eventsSkipped == 1)
            let rows = try await harness.pool.read { database in
                try database.query("SELECT occurred_on, recorded_at FROM habit_events ORDER BY occurred_on").map {
                    "\(try $0["occurred_on"] as String) \(try $0["recorded_at"] as String)"
                }
            }
            #expect(rows == ["2026-09-21 2026-09-20T22:00:00.000Z", "2026-09-22 2026-09-21T22:00:00.000Z"])
            let swim = try await importer.habits.habit(id: report.createdHabitIDs[1], viewer: viewer)
            #expect(swim.startsOn.description == "2026-09-22", "no history: today in the user's zone, not in UTC")
        }
    }

    @Test func anImportThatWouldPassTheHabitsPerUserLimitIsRefusedWholeAndOneReachingItIsNot() async throws {
        try await HouseholdsHarness.with { harness in
            let viewer = try await harness.confirmedViewer("ana")
            let importer = Self.importer(harness, habits: HabitsConfiguration(maximumHabitsPerUser: 3))
            _ = try await importer.habits.createHabit(
                HabitDraft(title: "Walk", reason: nil, startsOn: CalendarDay("2024-01-01")!, plan: [.monday]), viewer: viewer)
            let error = await Self.refusal {
                _ = try await importer.importArchive(try Self.archive(["A", "B", "C"]), for: viewer, clientMutationID: nil, field: "input.file")
            }
            #expect(error?.code == .badUserInput && error?.reason == .limitReached && error?.limit == 3)
            #expect(error?.problems.first?.field == "input.file" && error?.problems.first?.reason == .notAllowed)
            #expect(try await Self.count("habits", harness) == 1)
            #expect(try await Self.count("habit_events", harness) == 0, "nothing half-imported")
            let atLimit = try await importer.importArchive(try Self.archive(["A", "B"]), for: viewer, clientMutationID: nil, field: "input.file")
            #expect(atLimit.habitsCreated == 2)
            let again = try await importer.importArchive(try Self.archive(["A", "B"], days: ["2024-01-01", "2024-01-02"]), for: viewer, clientMutationID: nil, field: "input.file")
            #expect((again.habitsUnchanged, again.eventsCreated) == (2, 2), "at the limit, known habits still take their new days")
        }
    }

    @Test func anArchiveOfMoreFilesThanTheLimitIsRefusedAndOneOfExactlyThatManyIsNot() async throws {
        try await HouseholdsHarness.with { harness in
            let viewer = try await harness.confirmedViewer("ana")
            let archive = try Self.archive(["A", "B"])  // Habits.csv and two Checkmarks.csv
            let error = await Self.refusal {
                _ = try await Self.importer(harness, limits: HabitPortingConfiguration(maxFiles: 2))
                    .importArchive(archive, for: viewer, clientMutationID: nil, field: "input.file")
            }
            #expect(error?.problems.first?.reason == .tooLarge && error?.limit == 2)
            #expect(try await Self.count("habits", harness) == 0)
            let report = try await Self.importer(harness, limits: HabitPortingConfiguration(maxFiles: 3))
                .importArchive(archive, for: viewer, clientMutationID: nil, field: "input.file")
            #expect(report.habitsCreated == 2)
        }
    }

    @Test func eventsStoredOneTransactionEachAreTheSameAsInOneAndAReImportFindsThemAll() async throws {
        try await HouseholdsHarness.with { harness in
            let viewer = try await harness.confirmedViewer("ana")
            let days = ["2024-01-01", "2024-01-02", "2024-01-03"]
            let oneByOne = Self.importer(harness, limits: HabitPortingConfiguration(eventsPerTransaction: 1))
            let first = try await oneByOne.importArchive(try Self.archive(["A", "B"], days: days), for: viewer, clientMutationID: nil, field: "input.file")
            #expect((first.habitsCreated, first.eventsCreated, first.eventsUnchanged) == (2, 6, 0))
            let whole = Self.importer(harness, limits: HabitPortingConfiguration(eventsPerTransaction: 100_000))
            let again = try await whole.importArchive(
                try Self.archive(["A", "B"], days: days + ["2024-01-04"]), for: viewer, clientMutationID: nil, field: "input.file")
            #expect((again.habitsUnchanged, again.eventsCreated, again.eventsUnchanged) == (2, 2, 6))
            let rows = try await harness.pool.read { database in
                try database.query("SELECT h.title, e.occurred_on FROM habit_events e JOIN habits h ON h.id = e.habit_id ORDER BY h.title, e.occurred_on")
                    .map { "\(try $0["title"] as String) \(try $0["occurred_on"] as String)" }
            }
            #expect(rows == ["A", "B"].flatMap { title in (days + ["2024-01-04"]).map { "\(title) \($0)" } })
        }
    }

    @Test func aReplayedImportReturnsTheFirstReportAndChangesNothingEvenAfterItsHabitWasDeleted() async throws {
        try await HouseholdsHarness.with { harness in
            let viewer = try await harness.confirmedViewer("ana")
            let importer = Self.importer(harness, limits: HabitPortingConfiguration(eventsPerTransaction: 1))
            let archive = try Self.archive(["A"], days: ["2024-01-01", "2024-01-02"])
            let first = try await importer.importArchive(archive, for: viewer, clientMutationID: "import-1", field: "input.file")
            _ = try await importer.habits.deleteHabit(id: first.createdHabitIDs[0], viewer: viewer)
            let replay = try await importer.importArchive(archive, for: viewer, clientMutationID: "import-1", field: "input.file")
            #expect(replay == first)
            #expect(try await Self.count("habits", harness) == 0)
            let fresh = try await importer.importArchive(archive, for: viewer, clientMutationID: "import-2", field: "input.file")
            #expect((fresh.habitsCreated, fresh.eventsCreated) == (1, 2))
        }
    }
}
