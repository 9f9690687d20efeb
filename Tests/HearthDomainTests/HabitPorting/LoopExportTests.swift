import Foundation
import HearthDomain
import Testing
import TestPython

/// Reading Loop Habit Tracker's "Export as CSV" files and mapping them to habits and events, on
/// the fixture `Tests/Fixtures/LoopHabitTracker`, written by `tools/loop-export/loop_export.py`
/// as Loop's `HabitsCSVExporter` writes it (three years of six habits: a quoted name with a
/// comma, notes with a comma, a quote and a line break, a measurable habit with a target, a
/// title past 20 characters, a multi-line question, frequencies other than daily), and on the
/// same habits in the format of exports before mid-2025 (numbers, no headers).
@Suite struct LoopExportTests {
    static let fixture = TestPython.packageRoot.appendingPathComponent("Tests/Fixtures/LoopHabitTracker")

    static func paths(under root: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root.path + "/" + path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }

    static func read(paths: [String], under root: URL = fixture) throws -> LoopExport {
        try LoopExport.read(paths: paths) { path in
            Array(try Data(contentsOf: root.appendingPathComponent(path)))
        }
    }

    static func fixtureExport() throws -> LoopExport {
        try read(paths: try paths(under: fixture))
    }

    static let doneDays = [811, 418, 493, 145, 170, 14]

    static func doneCounts(_ export: LoopExport) -> [Int] {
        export.habits.map { habit in habit.checkmarks.filter(habit.isDone).count }
    }

    @Test func everyHabitOfTheFixtureIsReadWithItsFrequencyAndHistory() throws {
        let export = try Self.fixtureExport()
        #expect(export.habits.map(\.name) == [
            "Meditate", "Read, then journal", "Floss", "Practise the Goldberg Variations", "Run", String(repeating: "🧘", count: 21),
        ])
        #expect(export.habits.map(\.numerator) == [1, 3, 1, 1, 1, 1])
        #expect(export.habits.map(\.denominator) == [1, 7, 2, 1, 7, 1])
        #expect(export.habits.map(\.isNumerical) == [false, false, false, false, true, false])
        #expect(export.habits[4].target == .atLeast(5))
        #expect(export.habits.map { $0.checkmarks.count } == [1096, 1096, 1096, 1087, 193, 20])
        #expect(Self.doneCounts(export) == Self.doneDays)
        #expect(export.habits[0].checkmarks.first?.date == "2022-01-01")
        #expect(export.habits[0].checkmarks.first { $0.date == "2023-07-15" }?.notes == "Used the \"body scan\"\nthen slept")
        #expect(export.rejections.isEmpty)
    }

    @Test func habitsWithoutAFolderTakeTheirColumnOfTheTopLevelCheckmarksFile() throws {
        let export = try Self.read(paths: try Self.paths(under: Self.fixture).filter { !$0.contains("/") })
        #expect(Self.doneCounts(export) == Self.doneDays)
        #expect(export.rejections.isEmpty)
    }

    @Test func anExportOfTheFormatBeforeMid2025IsReadAlike() throws {
        let root = URL(fileURLWithPath: NSTemporaryDirectory() + "loop-2021-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let script = TestPython.packageRoot.appendingPathComponent("tools/loop-export/loop_export.py").path
        let outcome = try TestPython.run([script, "--dir", root.path, "--format", "2021"])
        try #require(outcome.status == 0, "\(outcome.errors)")
        #expect(try String(contentsOf: root.appendingPathComponent("001 Meditate/Checkmarks.csv"), encoding: .utf8).hasPrefix("2024-12-31,0\n"))
        let export = try Self.read(paths: try Self.paths(under: root), under: root)
        #expect(Self.doneCounts(export) == Self.doneDays)
        #expect(export.rejections.isEmpty)
    }

    @Test func anArchiveWithoutHabitsCSVIsRefused() throws {
        let paths = try Self.paths(under: Self.fixture).filter { $0 != "Habits.csv" }
        #expect(throws: LoopExport.Failure.self) { try Self.read(paths: paths) }
        do {
            _ = try Self.read(paths: paths)
        } catch let failure as LoopExport.Failure {
            #expect(failure.reason == .missingHabits)
        }
    }

    @Test func checkmarkValuesAreReadAsNumbersOrAsLoopsConstantNames() {
        #expect(LoopCheckmark.value("2", isNumerical: false) == .yesManual)
        #expect(LoopCheckmark.value("YES_MANUAL", isNumerical: false) == .yesManual)
        #expect(LoopCheckmark.value("1", isNumerical: false) == .yesAuto)
        #expect(LoopCheckmark.value("0", isNumerical: false) == .no)
        #expect(LoopCheckmark.value("-1", isNumerical: false) == .unknown)
        #expect(LoopCheckmark.value("3", isNumerical: false) == .skip)
        #expect(LoopCheckmark.value("SKIP", isNumerical: false) == .skip)
        #expect(LoopCheckmark.value("7", isNumerical: false) == nil)
        #expect(LoopCheckmark.value("5000", isNumerical: true) == .amount(5000))
        #expect(LoopCheckmark.value("UNKNOWN", isNumerical: true) == .unknown)
    }

    @Test func aMeasurableDayIsDoneWhenItsAmountMeetsTheTarget() {
        func done(_ thousandths: Double, _ target: LoopTarget?) -> Bool {
            LoopHabit(position: "001", name: "Run", question: "", numerator: 1, denominator: 1, isNumerical: true, target: target)
                .isDone(LoopCheckmark(date: "2024-01-01", value: .amount(thousandths)))
        }
        #expect(!done(4999, .atLeast(5)) && done(5000, .atLeast(5)))
        #expect(done(0, .atMost(2)) && done(2000, .atMost(2)) && !done(2001, .atMost(2)))
        #expect(!done(0, nil) && done(1, nil))
        #expect(LoopTarget(type: "AT_LEAST", value: "5.0") == .atLeast(5) && LoopTarget(type: "", value: "") == nil)
        let yesNo = LoopHabit(position: "001", name: "Read", question: "", numerator: 1, denominator: 1)
        #expect(!yesNo.isDone(LoopCheckmark(date: "2024-01-01", value: .yesAuto)) && !yesNo.isDone(LoopCheckmark(date: "2024-01-01", value: .skip)))
    }

    @Test func aDailyHabitIsPlannedEveryDayAndStartsOnItsFirstDoneDay() throws {
        let meditate = try LoopHabitMapping.map(try Self.fixtureExport().habits[0]).get()
        #expect(meditate.plan.rawValue == 0b111_1111 && !meditate.planWasChosen)
        #expect(meditate.title == "Meditate")
        #expect(meditate.reason == "Did you meditate today?")
        #expect(meditate.startsOn == meditate.events.first?.day)
        #expect(meditate.events.count == 811)
        #expect(meditate.events.first { $0.day.description == "2024-03-06" }?.comment == "Felt calm, 20 min")
        #expect(meditate.events.first { $0.day.description == "2023-07-15" }?.comment == "Used the \"body scan…")
        #expect(meditate.commentsCut == 2)
        #expect(!meditate.titleWasCut)
    }

    @Test func nTimesAWeekPlansTheWeekdaysMostOftenDone() throws {
        let export = try Self.fixtureExport()
        let reading = try LoopHabitMapping.map(export.habits[1]).get()
        #expect(reading.plan.weekdays == [.monday, .wednesday, .saturday] && reading.planWasChosen)
        let run = try LoopHabitMapping.map(export.habits[4]).get()
        #expect(run.plan.weekdays == [.sunday])
        #expect(run.events.count == 170)
        let noHistory = LoopHabit(position: "009", name: "Stretch", question: "", numerator: 2, denominator: 7)
        #expect(try LoopHabitMapping.map(noHistory).get().plan.weekdays == [.monday, .tuesday])
        #expect(try LoopHabitMapping.map(noHistory).get().startsOn == nil)
    }

    @Test func anyOtherFrequencyPlansItsShareOfTheWeekOnTheDaysMostOftenDone() throws {
        let floss = try LoopHabitMapping.map(try Self.fixtureExport().habits[2]).get()
        // Every other day: 3.5 days a week, rounded to 4.
        #expect(floss.plan.weekdays == [.monday, .wednesday, .friday, .saturday] && floss.planWasChosen)
        #expect(floss.events.count == 493)
        let monthly = LoopHabit(position: "010", name: "Budget", question: "", numerator: 1, denominator: 30)
        #expect(try LoopHabitMapping.map(monthly).get().plan.weekdays == [.monday])
        let twicePerDay = LoopHabit(position: "011", name: "Water", question: "", numerator: 2, denominator: 1)
        #expect(try LoopHabitMapping.map(twicePerDay).get().plan.rawValue == 0b111_1111)
        #expect(try !LoopHabitMapping.map(twicePerDay).get().planWasChosen)
        let none = LoopHabit(position: "012", name: "Never", question: "", numerator: 0, denominator: 7)
        #expect(LoopHabitMapping.map(none) == .failure(.unsupportedFrequency))
    }

    @Test func textsPastTheirLimitEndInAnEllipsisAndMultiLineTextsBecomeOneLine() throws {
        let export = try Self.fixtureExport()
        let piano = try LoopHabitMapping.map(export.habits[3]).get()
        #expect(piano.title == "Practise the Goldbe…" && piano.title.count == 20)
        #expect(piano.titleWasCut)
        #expect(piano.reason == "Did you practise the piano th…")
        #expect(piano.reasonWasCut)
        let stretch = try LoopHabitMapping.map(export.habits[5]).get()
        #expect(stretch.title == String(repeating: "🧘", count: 19) + "…" && stretch.titleWasCut)
        #expect(stretch.reason == "Stretch? Ten minutes" && stretch.reasonWasCut)
        let twenty = LoopHabit(position: "013", name: String(repeating: "🏃🏽‍♀️", count: 20), question: "", numerator: 1, denominator: 1)
        #expect(try !LoopHabitMapping.map(twenty).get().titleWasCut)
        let twoLines = LoopHabit(position: "014", name: "Read\nmore", question: "", numerator: 1, denominator: 1)
        #expect(try LoopHabitMapping.map(twoLines).get().title == "Read more")
        #expect(try LoopHabitMapping.map(twoLines).get().titleWasCut)
        // What a mapping stores is what createHabit accepts.
        for habit in export.habits {
            let mapped = try LoopHabitMapping.map(habit).get()
            #expect(try HabitRules.title(mapped.title, field: "t") == mapped.title)
            #expect(try HabitRules.reason(mapped.reason, field: "r") == mapped.reason)
        }
    }

    @Test func anEmptyNameIsSkipped() {
        let blank = LoopHabit(position: "014", name: " \n\t", question: "", numerator: 1, denominator: 1)
        #expect(LoopHabitMapping.map(blank) == .failure(.invalidName))
    }

    @Test func daysAreReadOnlyWhenTheyAreRealCalendarDays() {
        #expect(DayText.dayNumber("2024-02-29") != nil)
        #expect(DayText.dayNumber("2023-02-29") == nil)
        #expect(DayText.dayNumber("2024-2-01") == nil)
        #expect(DayText.text(DayText.dayNumber("1999-12-31")!) == "1999-12-31")
    }

    @Test func aDaysNoonIsInsideTheDayInEveryZoneAndAcrossDaylightSavingChanges() throws {
        let berlin = try #require(TimeZoneRules.named("Europe/Berlin"))
        let day = try #require(CalendarDay("2024-03-31"))  // clocks go forward at 02:00
        #expect(day.noon(in: berlin) == ISO8601DateFormatter().date(from: "2024-03-31T10:00:00Z"))
        for name in ["Pacific/Kiritimati", "Pacific/Pago_Pago", "America/Los_Angeles", "UTC"] {
            let zone = try #require(TimeZoneRules.named(name))
            #expect(CalendarDay(containing: day.noon(in: zone), in: zone) == day, "\(name)")
        }
    }
}
