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

    static func insertEvents(_ count: Int, for viewer: Viewer, in pool: DatabasePool) throws {
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

    static func importer(_ harness: AccountsHarness, maxImportBytes: Int = 2 << 20) -> LoopImporter {
        LoopImporter(
            pool: harness.pool, clock: harness.clock, workers: WorkerPool(label: "test-import", concurrency: 1, queueLimit: 4),
            configuration: HabitPortingConfiguration(maxImportBytes: maxImportBytes))
    }

    /// A zip made by Python: `files` (name → text), deflated.
    static func zip(_ files: [String: String]) throws -> [UInt8] {
        let script = """
            import io, json, sys, zipfile
            out = io.BytesIO()
            with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
                for name, text in sorted(json.loads(sys.stdin.read()).items()):
                    archive.writestr(name, text)
            sys.stdout.buffer.write(out.getvalue())
            """
        let outcome = try TestPython.run(["-c", script], input: try JSONSerialization.data(withJSONObject: files))
        try #require(outcome.status == 0, "\(outcome.errors)")
        return Array(outcome.standardOutput)
    }

    static let habits = "Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color\n001,Run,YES_NO,Did you run?,,1,1,#E53935\n"

    @Test func anArchiveUnpackingPastSixteenTimesTheLimitIsRefusedAsTooLarge() async throws {
        try await AccountsHarness.with { harness in
            let viewer = try await Self.viewer(harness)
            let checkmarks = "Date,Value,Notes\n" + String(repeating: "2024-01-01,2,\n", count: 1200)  // 16,817 bytes, 16 KiB is 16,384
            let archive = try Self.zip(["Habits.csv": Self.habits, "001 Run/Checkmarks.csv": checkmarks])
            #expect(archive.count < 1024)
            await #expect(throws: ServiceError.self) {
                try await Self.importer(harness, maxImportBytes: 1024).importArchive(archive, for: viewer, clientMutationID: nil, field: "input.file")
            }
            do {
                _ = try await Self.importer(harness, maxImportBytes: 1024).importArchive(archive, for: viewer, clientMutationID: nil, field: "input.file")
            } catch let error as ServiceError {
                #expect(error.problems.first?.reason == .tooLarge)
            }
            let fits = try Self.zip(["Habits.csv": Self.habits, "001 Run/Checkmarks.csv": "Date,Value,Notes\n2024-01-01,2,first run\n"])
            let report = try await Self.importer(harness, maxImportBytes: 1024).importArchive(fits, for: viewer, clientMutationID: nil, field: "input.file")
            #expect(report.habitsCreated == 1 && report.eventsCreated == 1)
        }
    }

    @Test func aSecondImportCreatesNothingAndALaterExportAddsOnlyItsNewDays() async throws {
        try await AccountsHarness.with { harness in
            let viewer = try await Self.viewer(harness)
            let importer = Self.importer(harness)
            let first = try Self.zip(["Habits.csv": Self.habits, "001 Run/Checkmarks.csv": "Date,Value,Notes\n2024-01-02,2,\n2024-01-01,2,easy run\n"])
            let later = try Self.zip(["Habits.csv": Self.habits, "001 Run/Checkmarks.csv": "Date,Value,Notes\n2024-01-03,2,\n2024-01-02,2,\n2024-01-01,2,easy run\n"])
            let created = try await importer.importArchive(first, for: viewer, clientMutationID: nil, field: "input.file")
            #expect((created.habitsCreated, created.eventsCreated) == (1, 2))
            let again = try await importer.importArchive(first, for: viewer, clientMutationID: nil, field: "input.file")
            #expect((again.habitsCreated, again.habitsUnchanged, again.eventsCreated, again.eventsUnchanged) == (0, 1, 0, 2))
            let grown = try await importer.importArchive(later, for: viewer, clientMutationID: nil, field: "input.file")
            #expect((grown.habitsCreated, grown.habitsUnchanged, grown.eventsCreated, grown.eventsUnchanged) == (0, 1, 1, 2))
            let count = try await harness.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM habit_events") }
            #expect(count == 3)
        }
    }
}
