import Foundation
import GraphQL
import TestPython
import Testing

/// What to do today and the habit status indicators through the binary (issue 16: US 01.07,
/// US 01.08), named by user story: the server's clock is moved (never slept on) to the days a test
/// needs.
@Suite struct HabitAdherenceTests {
    @Test func US_01_07_01_aHabitPlannedMondayWednesdayFridayIsToDoOnThoseDaysAndDoneOnceRecorded() throws {
        let server = try ServerProcess(ServerProcess.adherenceArguments)
        defer { server.remove() }
        // People are signed up after the first move: a token from before it would have expired.
        try server.moveClock(to: "2027-03-01T08:00:00Z")  // Monday
        var ana = try server.person("ana")
        let ben = try server.person("ben")
        let runID = try server.habit("Run", plan: ["MONDAY", "WEDNESDAY", "FRIDAY"], startsOn: "2027-03-01", as: ana)
        _ = try server.habit("Read", plan: ["MONDAY"], startsOn: "2027-03-08", as: ana)  // not started yet
        _ = try server.habit("Swim", plan: ["MONDAY"], startsOn: "2027-03-01", as: ben)
        #expect(try server.todayHabits(as: ana) == ["Run false"])
        try server.recordEvent(of: runID, as: ana)
        #expect(try server.todayHabits(as: ana) == ["Run true"])
        try server.moveClock(to: "2027-03-02T08:00:00Z", signingIn: &ana)  // Tuesday
        #expect(try server.todayHabits(as: ana).isEmpty)
        try server.moveClock(to: "2027-03-03T08:00:00Z", signingIn: &ana)  // Wednesday: to do again
        #expect(try server.todayHabits(as: ana) == ["Run false"])
        try server.moveClock(to: "2027-03-04T08:00:00Z", signingIn: &ana)  // Thursday
        #expect(try server.todayHabits(as: ana).isEmpty)
        try server.moveClock(to: "2027-03-05T08:00:00Z", signingIn: &ana)  // Friday
        #expect(try server.todayHabits(as: ana) == ["Run false"])
        try server.moveClock(to: "2027-03-08T08:00:00Z", signingIn: &ana)  // Monday: Read has started
        #expect(try server.todayHabits(as: ana) == ["Run false", "Read false"])
        let signedOut = try server.graphQL("{ todayHabits { isDoneToday } }")
        #expect(signedOut.errorCode == "UNAUTHENTICATED")
    }

    @Test func US_01_07_01_anEventRecordedJustAfterLocalMidnightCountsForTheNewDay() throws {
        let server = try ServerProcess(ServerProcess.adherenceArguments)
        defer { server.remove() }
        try server.moveClock(to: "2027-03-02T14:55:00Z")  // 23:55 on Tuesday in Tokyo
        let ana = try server.person("ana")
        try server.setTimeZone("Asia/Tokyo", of: ana)  // UTC+9 all year
        let runID = try server.habit("Run", plan: ["WEDNESDAY"], startsOn: "2027-03-01", as: ana)
        #expect(try server.todayHabits(as: ana).isEmpty)
        try server.moveClock(to: "2027-03-02T15:05:00Z")  // 00:05 on Wednesday in Tokyo, still Tuesday in UTC
        #expect(try server.todayHabits(as: ana) == ["Run false"])
        try server.recordEvent(of: runID, as: ana)
        #expect(try server.todayHabits(as: ana) == ["Run true"])
        let adherence = try server.habitAdherence(runID, weeks: 1, as: ana)
        let figures = try #require(adherence.data?["habit"]?["adherence"], "\(adherence.json)")
        #expect(figures["today"] == "2027-03-03" && figures["isDoneToday"] == true && figures["keptDays"] == 1 && figures["plannedDays"] == 1)
    }

    @Test func US_01_08_01_theAdherenceOfAKnownHistory() throws {
        let server = try ServerProcess(ServerProcess.adherenceArguments + ["--max-adherence-weeks", "10"])
        defer { server.remove() }
        try server.moveClock(to: "2027-03-24T08:00:00Z")  // Wednesday
        var ana = try server.person("ana")
        let runID = try server.habit("Run", plan: ["MONDAY", "WEDNESDAY", "FRIDAY"], startsOn: "2027-03-01", as: ana)
        // Every planned day since Monday 03-01 kept but Friday 03-12, and Tuesday 03-23 off the plan.
        for day in ["01", "03", "05", "08", "10", "15", "17", "19", "22", "23"] {
            try server.recordEvent(of: runID, on: "2027-03-\(day)", as: ana)
        }
        let morning = try #require(try server.habitAdherence(runID, weeks: 4, as: ana).data?["habit"]?["adherence"])
        // Today (Wednesday) is pending: 10 planned days so far, 9 kept.
        #expect(morning["isPlannedToday"] == true && morning["isDoneToday"] == false)
        #expect(morning["plannedDays"] == 10 && morning["keptDays"] == 9 && morning["shareSinceStart"] == .double(0.9))
        #expect(morning["plannedDaysLast30Days"] == 10 && morning["shareLast30Days"] == .double(0.9))
        #expect(morning["currentStreak"] == 4 && morning["bestStreak"] == 5)
        #expect(Self.weeks(morning) == [
            "2027-03-01 2027-03-07 3 3 1 0", "2027-03-08 2027-03-14 3 2 0.6666666666666666 0", "2027-03-15 2027-03-21 3 3 1 0",
            "2027-03-22 2027-03-28 1 1 1 1",
        ])
        try server.recordEvent(of: runID, as: ana)
        let evening = try #require(try server.habitAdherence(runID, weeks: 1, as: ana).data?["habit"]?["adherence"])
        #expect(evening["plannedDays"] == 11 && evening["keptDays"] == 10 && evening["currentStreak"] == 5 && evening["bestStreak"] == 5)
        #expect(Self.weeks(evening) == ["2027-03-22 2027-03-28 2 2 1 1"])
        // Friday passes without an event: missed on Saturday.
        try server.moveClock(to: "2027-03-27T08:00:00Z", signingIn: &ana)
        let saturday = try #require(try server.habitAdherence(runID, weeks: 1, as: ana).data?["habit"]?["adherence"])
        #expect(saturday["plannedDays"] == 12 && saturday["currentStreak"] == 0 && saturday["bestStreak"] == 5)
        // The series' length is limited by --max-adherence-weeks: 10 passes, 11 and 0 do not.
        #expect(try server.habitAdherence(runID, weeks: 10, as: ana).data?["habit"]?["adherence"]?["weeks"].map(Self.count) == 10)
        for weeks in [11, 0] {
            let refused = try server.habitAdherence(runID, weeks: weeks, as: ana)
            #expect(refused.errorCode == "BAD_USER_INPUT" && refused.errorReason == "OUT_OF_RANGE", "\(refused.json)")
        }
    }

    @Test func US_01_08_01_theSparklineIsAValidSVGForWhoeverMaySeeTheHabitAndItsETagChangesWithAnEvent() throws {
        let server = try ServerProcess(ServerProcess.adherenceArguments)
        defer { server.remove() }
        try server.moveClock(to: "2027-03-24T08:00:00Z")
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        let cara = try server.person("cara")
        let runID = try server.habit("Run & <swim>", plan: ["MONDAY", "WEDNESDAY", "FRIDAY"], startsOn: "2027-03-22", as: ana)
        let diaryID = try server.habit("Diary", plan: ["MONDAY"], startsOn: "2027-03-01", visibility: "PRIVATE", as: ana)
        try server.recordEvent(of: runID, on: "2027-03-22", as: ana)
        let url = try #require(try server.habitAdherence(runID, weeks: 1, as: ana).data?["habit"]?["sparklineUrl"]?.stringValue)
        #expect(url == "\(ServerProcess.householdBaseURL)/habits/\(runID)/sparkline.svg")
        let path = "/habits/\(runID)/sparkline.svg"

        let first = try server.get(path, as: ana)
        #expect(first.status == 200 && first.headers["Content-Type"] == "image/svg+xml")
        #expect(first.headers["Cache-Control"] == "private, no-cache" && first.headers["Vary"] == "Authorization")
        let etag = try #require(first.headers["ETag"])
        let checked = try TestPython.runScript(Self.svgCheck, [first.text])
        #expect(checked == ["svg 1.1 0 0 120 32", "title Run & <swim>: planned days kept, last 12 weeks", "bars 1"], "\(first.text)")
        #expect(try server.get(path, as: ana).text == first.text)
        let unchanged = try server.get(path, as: ana, headers: "If-None-Match: \(etag)\r\n")
        #expect(unchanged.status == 304 && unchanged.body.isEmpty && unchanged.headers["ETag"] == etag)

        try server.recordEvent(of: runID, as: ana)
        let after = try server.get(path, as: ana, headers: "If-None-Match: \(etag)\r\n")
        #expect(after.status == 200 && after.headers["ETag"] != nil && after.headers["ETag"] != etag)

        // Signed out: 401; not following: 404, like an unknown id; an accepted follower sees it,
        // but not a private habit.
        let signedOut = try server.get(path, as: nil)
        #expect(signedOut.status == 401 && signedOut.headers["WWW-Authenticate"] == "Bearer")
        #expect(try server.get(path, as: ben).status == 404)
        #expect(try server.get("/habits/hab_00000000-0000-7000-8000-000000000000/sparkline.svg", as: ana).status == 404)
        try server.acceptedFollow(of: ana, by: ben)
        #expect(try server.get(path, as: ben).status == 200)
        #expect(try server.get("/habits/\(diaryID)/sparkline.svg", as: ben).status == 404)
        #expect(try server.get("/habits/\(diaryID)/sparkline.svg", as: ana).status == 200)
        #expect(try server.get(path, as: cara).status == 404)
    }

    /// Parses the SVG (argv[1]) with a real XML parser and prints its root's version and viewBox,
    /// its title and how many bars it draws; fails on any external reference.
    private static let svgCheck = """
        import sys, xml.etree.ElementTree as ET
        root = ET.fromstring(sys.argv[1].encode("utf-8"))
        ns = "{http://www.w3.org/2000/svg}"
        assert root.tag == ns + "svg", root.tag
        for element in root.iter():
            for name, value in element.attrib.items():
                assert "href" not in name and "url(" not in value, (name, value)
            assert element.tag in (ns + "svg", ns + "title", ns + "desc", ns + "rect"), element.tag
        print("svg", root.get("version"), root.get("viewBox"))
        print("title", root.find(ns + "title").text)
        print("bars", len(root.findall(ns + "rect")) - 1)
        """

    /// Each week of an adherence object as `"startsOn endsOn planned kept share unplannedDone"`.
    private static func weeks(_ adherence: JSON) -> [String] {
        guard case .array(let weeks)? = adherence["weeks"] else { return [] }
        return weeks.map { week in
            ["startsOn", "endsOn", "plannedDays", "keptDays", "share", "unplannedDaysDone"].map { key in
                switch week[key] {
                case .string(let text)?: text
                case .int(let number)?: String(number)
                case .double(let number)?: number == number.rounded() ? String(Int(number)) : String(number)
                default: "null"
                }
            }.joined(separator: " ")
        }
    }

    private static func count(_ value: JSON) -> Int {
        if case .array(let elements) = value { elements.count } else { -1 }
    }
}
