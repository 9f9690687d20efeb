import Foundation
import GraphQL
import HearthHTTP
import Testing
import TestPython

/// "Your data, in and out" (issue 16) through the binary: exports streamed as JSON, CSV and a
/// zip with the photos, read back by Python's `json`, `csv` and `zipfile`; imports of a Loop
/// Habit Tracker export (the fixture, written as Loop writes it by `tools/loop-export`: three
/// years of six habits), idempotent, in the user's calendar days, and their refusals.
@Suite struct HabitPortingTests {
    /// The fixture's done days, one event each: Meditate, Read, Floss, Practise, Run (5 km or more), the emoji habit.
    static let importedEvents = 811 + 418 + 493 + 145 + 170 + 14
    /// The emoji habit's stored title: 19 of its 21 characters and an ellipsis.
    static let emojiTitle = String(repeating: "🧘", count: 19) + "…"

    static func withServer(_ arguments: [String] = [], _ body: (ServerProcess, ServerProcess.Person) throws -> Void) throws {
        let server = try ServerProcess(ServerProcess.householdArguments + arguments)
        defer { server.remove() }
        try body(server, try server.person("ana"))
    }

    static func result(_ response: HTTPTestClient.Response) throws -> JSON {
        try JSON(parsing: response.body)
    }

    /// Python reads `bytes` with `program` (which finds them at `sys.argv[1]`) and prints JSON.
    static func python(_ program: String, _ bytes: [UInt8]) throws -> Any {
        let path = NSTemporaryDirectory() + "hearth-export-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try TestPython.run(["-c", program, path])
        try #require(outcome.status == 0, "\(outcome.errors)")
        return try JSONSerialization.jsonObject(with: outcome.standardOutput)
    }

    @Test func US_01_01_01_aLoopExportBecomesHabitsWithTheirHistoryInTheUsersDaysOnceHoweverOftenItIsImported() throws {
        let server = try ServerProcess(ServerProcess.adherenceArguments)
        defer { server.remove() }
        var ana = try server.person("ana")
        try server.setTimeZone("America/Los_Angeles", of: ana)
        let archive = try ServerProcess.loopFixtureArchive()

        let first = try server.importLoopHabits(archive, as: ana)
        let payload = try #require(first.data?["importLoopHabits"], "\(first.json)")
        let result = try #require(payload["result"])
        #expect(result["habitsCreated"] == 6)
        #expect(result["eventsCreated"] == .int(Self.importedEvents))
        #expect(result["eventsUnchanged"] == 0)
        #expect(result["eventsSkipped"] == 0)
        #expect(result["skipped"] == [])
        #expect(result["adjustments"] == [
            ["habitName": "Meditate", "reason": "COMMENTS_SHORTENED", "storedAs": nil, "count": 2],
            ["habitName": "Read, then journal", "reason": "PLAN_CHOSEN", "storedAs": "MONDAY WEDNESDAY SATURDAY", "count": 1],
            ["habitName": "Floss", "reason": "PLAN_CHOSEN", "storedAs": "MONDAY WEDNESDAY FRIDAY SATURDAY", "count": 1],
            ["habitName": "Practise the Goldberg Variations", "reason": "TITLE_SHORTENED", "storedAs": "Practise the Goldbe…", "count": 1],
            ["habitName": "Practise the Goldberg Variations", "reason": "REASON_SHORTENED", "storedAs": "Did you practise the piano th…", "count": 1],
            ["habitName": "Run", "reason": "PLAN_CHOSEN", "storedAs": "SUNDAY", "count": 1],
            ["habitName": .string(String(repeating: "🧘", count: 21)), "reason": "TITLE_SHORTENED", "storedAs": .string(Self.emojiTitle), "count": 1],
            ["habitName": .string(String(repeating: "🧘", count: 21)), "reason": "REASON_SHORTENED", "storedAs": "Stretch? Ten minutes", "count": 1],
        ])
        // The habits it created, as Habit objects, in the export's order.
        guard case .array(let habits)? = payload["habits"] else { throw ServerProcess.Failure(description: "no habits in \(payload)") }
        #expect(habits.map { $0["title"]?.stringValue } == [
            "Meditate", "Read, then journal", "Floss", "Practise the Goldbe…", "Run", Self.emojiTitle,
        ])
        #expect(habits.map { $0["id"] } == (result["createdHabitIds"].flatMap { if case .array(let ids) = $0 { ids } else { nil } } ?? []))
        #expect(habits[1]["plan"] == ["MONDAY", "WEDNESDAY", "SATURDAY"])
        #expect(habits[0]["startsOn"] == "2022-01-01" && habits[5]["startsOn"] == "2024-12-12")
        #expect(habits[0]["visibility"] == "FOLLOWERS")

        // Created as the API creates them: each habit and event in the change log, for subscribers and sync.
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM change_log WHERE kind = 'habit.created'") == "6")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM change_log WHERE kind = 'habit_event.recorded'") == String(Self.importedEvents))
        // A day is the user's calendar day, its event recorded at local noon (20:00 UTC in Los Angeles' winter).
        #expect(try server.databaseText("SELECT recorded_at FROM habit_events WHERE occurred_on = '2024-03-06' AND comment = 'Felt calm, 20 min'")
            == "2024-03-06T20:00:00.000Z")

        // Today is the user's day: 05:00 UTC on 1 January 2040 is still 31 December 2039 in Los
        // Angeles. Its done day counts today; the next one is still to come and is skipped.
        try server.moveClock(to: "2040-01-01T05:00:00Z", signingIn: &ana)
        let swim = try server.importLoop(try TestPython.zip([
            "Habits.csv": "Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color\n001,Swim,YES_NO,,,1,1,#1E88E5\n",
            "001 Swim/Checkmarks.csv": "Date,Value,Notes\n2040-01-01,YES_MANUAL,\n2039-12-31,YES_MANUAL,\n2039-12-30,NO,\n",
        ]), as: ana)
        let swum = try Self.result(swim)
        #expect(swum["eventsCreated"] == 1)
        #expect(swum["skipped"] == [["habitName": "Swim", "date": "2040-01-01", "reason": "FUTURE_DAY", "eventsSkipped": 1]])
        #expect(try server.databaseText("SELECT recorded_at FROM habit_events WHERE occurred_on = '2039-12-31'") == "2039-12-31T20:00:00.000Z")
        let today = try server.todayHabits(as: ana)
        #expect(today.contains("Swim true") && today.filter { $0.hasSuffix(" true") }.count == 1, "\(today)")

        let lastHabitChange = "SELECT CAST(max(sequence) AS TEXT) FROM change_log WHERE kind LIKE 'habit%'"
        let changedLast = try server.databaseText(lastHabitChange)
        let again = try server.importLoop(archive, as: ana)
        #expect(again.status == 200, "\(again.text)")
        let report = try Self.result(again)
        #expect(report["habitsCreated"] == 0)
        #expect(report["createdHabitIds"] == [])
        #expect(report["habitsUnchanged"] == 6)
        #expect(report["eventsCreated"] == 0)
        #expect(report["eventsUnchanged"] == .int(Self.importedEvents))
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM habit_events") == String(Self.importedEvents + 1))
        #expect(try server.databaseText(lastHabitChange) == changedLast, "nothing new, nothing logged")

        let export = try server.export("habits.json", as: ana)
        #expect(export.status == 200)
        #expect(export.headers["Transfer-Encoding"] == "chunked")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(export.body)) as? [String: Any])
        let events = try #require(document["events"] as? [[String: Any]])
        #expect(events.count == Self.importedEvents + 1)
        #expect(events.contains { $0["occurredOn"] as? String == "2023-07-15" && $0["comment"] as? String == "Used the \"body scan…" })
    }

    @Test func US_01_01_01_anImportPastTheHabitsOrFilesLimitIsRefusedWholeAndOneAtBothLimitsIsNot() throws {
        // The fixture has six habits and fifteen files.
        try Self.withServer(["--max-habits-per-user", "6", "--loop-import-max-files", "15"]) { server, ana in
            let archive = try ServerProcess.loopFixtureArchive()
            let ben = try server.person("ben")
            _ = try server.habit("Walk", plan: ["MONDAY"], startsOn: "2024-01-01", as: ben)
            let refused = try server.importLoopHabits(archive, as: ben)
            #expect(refused.errorCode == "BAD_USER_INPUT")
            #expect(refused.errorExtensions?["reason"] == "LIMIT_REACHED")
            #expect(refused.errorExtensions?["limit"] == 6)
            #expect(refused.errorExtensions?["fieldErrors"]?[0]?["field"] == "input.file")
            #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM habits") == "1")
            #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM habit_events") == "0")

            let tooManyFiles = try server.importLoopHabits(try ServerProcess.loopFixtureArchive(adding: ["notes.txt": "hello"]), as: ana)
            #expect(tooManyFiles.errorExtensions?["reason"] == "TOO_LARGE")
            #expect(tooManyFiles.errorExtensions?["limit"] == 15)
            #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM habits") == "1")

            let atBothLimits = try server.importLoop(archive, as: ana)
            #expect(atBothLimits.status == 200, "\(atBothLimits.text)")
            #expect(try Self.result(atBothLimits)["habitsCreated"] == 6)
        }
    }

    @Test func aClientMutationIdReplaysTheFirstReport() throws {
        try Self.withServer { server, ana in
            let archive = try ServerProcess.loopFixtureArchive()
            let first = try server.importLoopHabits(archive, as: ana, clientMutationID: "import-1")
            let replay = try server.importLoopHabits(archive, as: ana, clientMutationID: "import-1")
            #expect(first.data?["importLoopHabits"]?["result"]?["habitsCreated"] == 6)
            #expect(replay.data?["importLoopHabits"] == first.data?["importLoopHabits"])
        }
    }

    @Test func theZipExportHoldsTheDocumentTheCSVFilesAndThePhotosIntact() throws {
        try Self.withServer { server, ana in
            let ben = try server.person("ben")
            let png = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!)
            let hex = png.map { String(format: "%02x", $0) }.joined()
            let now = "2025-01-02T08:00:00.000Z"
            try server.databaseWrite("""
                INSERT INTO habits (id, user_id, title, reason, starts_on, plan, visibility, created_at, updated_at)
                VALUES ('hab_ana1', '\(ana.userID)', 'Run, then stretch', 'Feel "light"', '2025-01-01', 31, 'followers', '\(now)', '\(now)'),
                       ('hab_ben1', '\(ben.userID)', 'Ben''s habit', '', '2025-01-01', 127, 'followers', '\(now)', '\(now)')
                """)
            try server.databaseWrite("""
                INSERT INTO habit_photos (id, user_id, media_type, width, height, sha256, bytes, created_at)
                VALUES ('pho_ana1', '\(ana.userID)', 'image/png', 1, 1, 'x', ?, '\(now)')
                """, [png])
            try server.databaseWrite("""
                INSERT INTO habit_events (id, habit_id, user_id, occurred_on, recorded_at, comment, photo_id, latitude, longitude, accuracy_meters, geohash, created_at, updated_at)
                VALUES ('hev_ana1', 'hab_ana1', '\(ana.userID)', '2025-01-02', '\(now)', '5k, "fast"', 'pho_ana1', 52.52, 13.405, 8, 'u33dc0', '\(now)', '\(now)'),
                       ('hev_ana2', 'hab_ana1', '\(ana.userID)', '2025-01-03', '\(now)', '', NULL, NULL, NULL, NULL, NULL, '\(now)', '\(now)'),
                       ('hev_ben1', 'hab_ben1', '\(ben.userID)', '2025-01-03', '\(now)', 'not ana''s', NULL, NULL, NULL, NULL, NULL, '\(now)', '\(now)')
                """)
            try server.databaseWrite("""
                INSERT INTO follows (id, follower_id, followed_id, status, requested_at, accepted_at)
                VALUES ('fol_1', '\(ben.userID)', '\(ana.userID)', 'accepted', '\(now)', '\(now)')
                """)
            let response = try server.export("habits.zip", as: ana)
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "application/zip")
            #expect(response.headers["Transfer-Encoding"] == "chunked")
            let read = try #require(try Self.python("""
                import csv, io, json, sys, zipfile
                with zipfile.ZipFile(sys.argv[1]) as archive:
                    print(json.dumps({
                        "bad": archive.testzip(),
                        "names": archive.namelist(),
                        "document": json.loads(archive.read("habits.json")),
                        "events": list(csv.DictReader(io.StringIO(archive.read("habit-events.csv").decode("utf-8"), newline=""))),
                        "follows": list(csv.DictReader(io.StringIO(archive.read("follows.csv").decode("utf-8"), newline=""))),
                        "photo": archive.read("photos/pho_ana1.png").hex(),
                    }))
                """, response.body) as? [String: Any])
            #expect(read["bad"] is NSNull)
            #expect(read["names"] as? [String] == ["habits.json", "habits.csv", "habit-events.csv", "follows.csv", "photos/pho_ana1.png"])
            #expect(read["photo"] as? String == hex)
            let events = try #require(read["events"] as? [[String: String]])
            #expect(events.map { $0["id"] } == ["hev_ana1", "hev_ana2"])
            #expect(events[0]["comment"] == "5k, \"fast\"")
            #expect(events[0]["habit_title"] == "Run, then stretch")
            #expect(events[0]["photo_file"] == "photos/pho_ana1.png")
            #expect(events[0]["latitude"] == "52.52")
            let follows = try #require(read["follows"] as? [[String: String]])
            #expect(follows == [[
                "id": "fol_1", "direction": "FOLLOWER", "username": "ben", "status": "ACCEPTED", "requested_at": now, "accepted_at": now,
            ]])
            let document = try #require(read["document"] as? [String: Any])
            let habits = try #require(document["habits"] as? [[String: Any]])
            #expect(habits.map { $0["id"] as? String } == ["hab_ana1"])
            #expect(habits[0]["reason"] as? String == "Feel \"light\"")
            #expect(habits[0]["plan"] as? [String] == ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY"])
            let located = try #require((document["events"] as? [[String: Any]])?.first)
            #expect((located["location"] as? [String: Any])?["latitude"] as? Double == 52.52)
            #expect((located["photo"] as? [String: Any])?["file"] as? String == "photos/pho_ana1.png")

            let unzip = try TestPython.run(["-c", """
                import subprocess, sys
                open("/tmp/hearth-e2e-export.zip", "wb").write(sys.stdin.buffer.read())
                result = subprocess.run(["unzip", "-t", "/tmp/hearth-e2e-export.zip"], capture_output=True, text=True)
                print(result.stdout)
                sys.exit(result.returncode)
                """], input: Data(response.body))
            #expect(unzip.status == 0 && unzip.output.contains("No errors detected"), "\(unzip.output)")

            let csv = try server.export("habits.csv", as: ana)
            #expect(csv.headers["Content-Type"] == "text/csv; charset=utf-8; header=present")
            let rows = try #require(try Self.python("""
                import csv, json, sys
                print(json.dumps(list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))))
                """, csv.body) as? [[String]])
            #expect(rows == [
                ["id", "title", "reason", "starts_on", "plan", "visibility", "created_at", "updated_at"],
                ["hab_ana1", "Run, then stretch", "Feel \"light\"", "2025-01-01", "MONDAY TUESDAY WEDNESDAY THURSDAY FRIDAY", "FOLLOWERS", now, now],
            ])
        }
    }

    @Test func exportsAskForASignedInUser() throws {
        try Self.withServer { server, _ in
            for file in ["habits.json", "habits.csv", "habit-events.csv", "follows.csv", "habits.zip"] {
                let response = try server.export(file, as: nil)
                #expect(response.status == 401)
                #expect(try Self.result(response)["errors"]?[0]?["extensions"]?["code"] == "UNAUTHENTICATED")
            }
        }
    }

    @Test func aFileThatIsNotAZipOrLacksHabitsCSVIsRefusedAndNothingIsStored() throws {
        try Self.withServer { server, ana in
            let csv = try server.importLoop(Array("Position,Name\n001,Meditate\n".utf8), as: ana)
            #expect(csv.status == 400)
            #expect(try Self.result(csv)["errors"]?[0]?["extensions"]?["fieldErrors"]?[0]?["reason"] == "INVALID_FORMAT")
            let noHabits = try server.importLoopHabits(try ServerProcess.loopFixtureArchive(leaving: ["Habits.csv"]), as: ana)
            #expect(noHabits.errorCode == "BAD_USER_INPUT")
            #expect(noHabits.json["errors"]?[0]?["message"]?.stringValue?.contains("Habits.csv") == true)
            #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM habits") == "0")
        }
    }

    @Test func theImportSizeLimitAdmitsAnArchiveOfExactlyItsSizeAndRefusesOneByteMore() throws {
        try Self.withServer(["--loop-import-max-bytes", "2048"]) { server, ana in
            let atLimit = try server.importLoop([UInt8](repeating: 0x41, count: 2048), as: ana)
            #expect(atLimit.status == 400)
            #expect(try Self.result(atLimit)["errors"]?[0]?["extensions"]?["fieldErrors"]?[0]?["reason"] == "INVALID_FORMAT")
            #expect(try server.importLoop([UInt8](repeating: 0x41, count: 2049), as: ana).status == 413)

            let uploadAtLimit = try server.importLoopHabits([UInt8](repeating: 0x41, count: 2048), as: ana)
            #expect(uploadAtLimit.errorExtensions?["fieldErrors"]?[0]?["reason"] == "INVALID_FORMAT")
            let uploadPast = try server.importLoopHabits([UInt8](repeating: 0x41, count: 2049), as: ana)
            #expect(uploadPast.errorCode == "BAD_USER_INPUT")
            #expect(uploadPast.errorExtensions?["fieldErrors"]?[0]?["reason"] == "TOO_LARGE")
            #expect(uploadPast.errorExtensions?["fieldErrors"]?[0]?["field"] == "input.file")
            #expect(uploadPast.json["errors"]?[0]?["message"]?.stringValue?.contains("2048") == true)
        }
    }
}
