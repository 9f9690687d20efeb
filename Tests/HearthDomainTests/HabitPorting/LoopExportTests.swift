import Foundation
import HearthDomain
import Testing
import TestPython

/// Reading Loop Habit Tracker's "Export as CSV" files and mapping them to habits and events, on
/// the fixture `Tests/Fixtures/LoopHabitTracker` (three years of five habits in Loop's format:
/// a quoted name with a comma, notes with a comma and a line break, a measurable habit, a title
/// past 20 characters and a frequency with no weekly plan).
@Suite struct LoopExportTests {
    static let fixture = TestPython.packageRoot.appendingPathComponent("Tests/Fixtures/LoopHabitTracker")

    static func fixturePaths() throws -> [String] {
        let root = fixture.path
        return try FileManager.default.subpathsOfDirectory(atPath: root).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }

    static func read(paths: [String]) throws -> LoopExport {
        try LoopExport.read(paths: paths) { path in
            Array(try Data(contentsOf: fixture.appendingPathComponent(path)))
        }
    }

    static let today = DayText.dayNumber("2025-01-01")!

    @Test func everyHabitOfTheFixtureIsReadWithItsFrequencyAndHistory() throws {
        let export = try Self.read(paths: try Self.fixturePaths())
        #expect(export.habits.map(\.name) == ["Meditate", "Read, then journal", "Floss", "Practise the Goldberg Variations", "Run"])
        #expect(export.habits.map(\.numerator) == [1, 3, 1, 1, 1])
        #expect(export.habits.map(\.denominator) == [1, 7, 2, 1, 7])
        #expect(export.habits.map(\.isNumerical) == [false, false, false, false, true])
        #expect(export.habits.map { $0.checkmarks.count } == [1096, 1096, 1096, 1096, 1096])
        #expect(export.habits.map { $0.checkmarks.filter(\.isDone).count } == [810, 428, 548, 142, 157])
        #expect(export.habits[0].checkmarks.first?.date == "2022-01-01")
        #expect(export.habits[0].checkmarks.first { $0.date == "2023-07-15" }?.notes == "Used the \"body scan\"\nthen slept")
        #expect(export.rejections.isEmpty)
    }

    @Test func habitsWithoutAFolderTakeTheirColumnOfTheTopLevelCheckmarksFile() throws {
        let paths = try Self.fixturePaths().filter { !$0.contains("/") }
        let export = try Self.read(paths: paths)
        #expect(export.habits.map { $0.checkmarks.filter(\.isDone).count } == [810, 428, 548, 142, 157])
    }

    @Test func anArchiveWithoutHabitsCSVIsRefused() throws {
        let paths = try Self.fixturePaths().filter { $0 != "Habits.csv" }
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
        #expect(LoopCheckmark.value("2.5", isNumerical: true) == .amount(2.5))
        #expect(LoopCheckmark(date: "2024-01-01", value: .amount(0)).isDone == false)
        #expect(LoopCheckmark(date: "2024-01-01", value: .yesAuto).isDone == false)
    }

    @Test func aDailyHabitIsPlannedEveryDayAndStartsOnItsFirstDoneDay() throws {
        let export = try Self.read(paths: try Self.fixturePaths())
        let meditate = try LoopHabitMapping.map(export.habits[0], today: Self.today).get()
        #expect(meditate.plan == LoopHabitMapping.everyDay)
        #expect(meditate.title == "Meditate")
        #expect(meditate.reason == "Did you meditate today?")
        #expect(meditate.startsOn == meditate.events.first?.date)
        #expect(meditate.events.count == 810)
        #expect(meditate.events.first { $0.date == "2024-03-06" }?.comment == "Felt calm, 20 min")
        #expect(meditate.events.first { $0.date == "2023-07-15" }?.comment == "Used the \"body scan\"")
        #expect(meditate.commentsCut == 1)
        #expect(!meditate.titleWasCut)
    }

    @Test func nTimesAWeekPlansTheWeekdaysMostOftenDone() throws {
        let export = try Self.read(paths: try Self.fixturePaths())
        let reading = try LoopHabitMapping.map(export.habits[1], today: Self.today).get()
        #expect(reading.plan == 1 << 0 | 1 << 2 | 1 << 5)  // Monday, Wednesday, Saturday
        let run = try LoopHabitMapping.map(export.habits[4], today: Self.today).get()
        #expect(run.plan == 1 << 6)  // Sunday
        #expect(run.events.count == 157)
        let noHistory = LoopHabit(position: "009", name: "Stretch", question: "", numerator: 2, denominator: 7)
        #expect(try LoopHabitMapping.map(noHistory, today: Self.today).get().plan == 0b11)
        #expect(try LoopHabitMapping.map(noHistory, today: Self.today).get().startsOn == "2025-01-01")
    }

    @Test func aFrequencyWithoutAWeeklyPlanIsSkipped() throws {
        let export = try Self.read(paths: try Self.fixturePaths())
        #expect(LoopHabitMapping.map(export.habits[2], today: Self.today) == .failure(.unsupportedFrequency))
        let monthly = LoopHabit(position: "010", name: "Budget", question: "", numerator: 1, denominator: 30)
        #expect(LoopHabitMapping.map(monthly, today: Self.today) == .failure(.unsupportedFrequency))
        let twicePerDay = LoopHabit(position: "011", name: "Water", question: "", numerator: 2, denominator: 1)
        #expect(try LoopHabitMapping.map(twicePerDay, today: Self.today).get().plan == LoopHabitMapping.everyDay)
    }

    @Test func titlesPastTwentyCharactersAreCutAndReported() throws {
        let export = try Self.read(paths: try Self.fixturePaths())
        let piano = try LoopHabitMapping.map(export.habits[3], today: Self.today).get()
        #expect(piano.title == "Practise the Goldber")
        #expect(piano.titleWasCut)
        #expect(piano.reason == "Did you practise the piano thi")
        #expect(piano.reasonWasCut)
        let emoji = LoopHabit(position: "012", name: String(repeating: "🏃🏽‍♀️", count: 21), question: "", numerator: 1, denominator: 1)
        let mapped = try LoopHabitMapping.map(emoji, today: Self.today).get()
        #expect(mapped.title.count == 20)
        #expect(mapped.titleWasCut)
        let twenty = LoopHabit(position: "013", name: String(repeating: "🏃🏽‍♀️", count: 20), question: "", numerator: 1, denominator: 1)
        #expect(try !LoopHabitMapping.map(twenty, today: Self.today).get().titleWasCut)
    }

    @Test func anEmptyNameIsSkipped() {
        let blank = LoopHabit(position: "014", name: " \n\t", question: "", numerator: 1, denominator: 1)
        #expect(LoopHabitMapping.map(blank, today: Self.today) == .failure(.invalidName))
    }

    @Test func daysAreReadOnlyWhenTheyAreRealCalendarDays() {
        #expect(DayText.dayNumber("2024-02-29") != nil)
        #expect(DayText.dayNumber("2023-02-29") == nil)
        #expect(DayText.dayNumber("2024-2-01") == nil)
        #expect(DayText.text(DayText.dayNumber("1999-12-31")!) == "1999-12-31")
    }
}
