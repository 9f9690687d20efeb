import Support

/// A Loop Habit Tracker "Export as CSV" archive, read (Loop's `HabitsCSVExporter`): `Habits.csv`
/// lists the habits (Position, Name, Type, Question, Description, FrequencyNumerator,
/// FrequencyDenominator, Color, Unit, Target Type, Target Value, Archived?; exports before 2.0
/// had Position, Name, Description, NumRepetitions, Interval, Color), each habit has a folder
/// `NNN Name/` (the name with all but ` a-zA-Z0-9._-` removed) with its `Checkmarks.csv` and
/// `Scores.csv`, and the top level repeats every habit's checkmarks in one `Checkmarks.csv`
/// (Date, then one column per habit, newest day first, each line ending in a comma). A habit's
/// `Checkmarks.csv` is `Date,Value,Notes` with a header and the values named (`YES_MANUAL`)
/// since mid-2025, and `date,value` without a header and the values as numbers (`2`) before;
/// both are read.
///
/// A habit's checkmarks come from its folder's file (matched by the position its name starts
/// with); a habit without a folder takes its column of the top-level file (columns follow the
/// order of `Habits.csv`; Loop writes that file's header unquoted, so names are not used to
/// match). Scores are Loop's own statistic and are not read: adherence is computed from events.
public struct LoopExport: Sendable, Equatable {
    /// Why an export could not be read.
    public struct Failure: Error, Sendable, Equatable {
        /// What is wrong, to branch on.
        public enum Reason: String, Sendable, Equatable {
            /// There is no `Habits.csv`.
            case missingHabits = "MISSING_HABITS_CSV"
            /// A CSV file is malformed or lacks a column Loop always writes.
            case invalidCSV = "INVALID_CSV"
        }

        /// What is wrong.
        public let reason: Reason
        /// A sentence naming the file and line.
        public let message: String
    }

    /// A row that was not read, and why.
    public struct Rejection: Sendable, Equatable {
        /// The habit's name as written (or the file's, for a row of no habit).
        public let habitName: String
        /// The day of the row, when it names one.
        public let date: String?
        /// The value that could not be read.
        public let text: String
    }

    /// The habits, in the order of `Habits.csv`.
    public var habits: [LoopHabit]
    /// Checkmark rows whose date or value could not be read.
    public var rejections: [Rejection]

    /// Reads an export from its files: `file(path)` answers the bytes of the file at `path` (a
    /// name of the archive), or nil; `paths` lists the archive's file names.
    /// - Throws: ``Failure``.
    public static func read(paths: [String], file: (String) throws -> [UInt8]?) throws -> LoopExport {
        guard let habitsPath = paths.first(where: { baseName($0).lowercased() == "habits.csv" && !$0.dropLast(10).contains("/") }),
            let habitsBytes = try file(habitsPath)
        else { throw Failure(reason: .missingHabits, message: "The archive has no Habits.csv at its top level: is it Loop's \"Export as CSV\"?") }
        var export = LoopExport(habits: try readHabits(habitsBytes), rejections: [])
        let folderFiles = Dictionary(
            paths.compactMap { path -> (String, String)? in
                let parts = path.split(separator: "/")
                guard parts.count == 2, parts[1].lowercased() == "checkmarks.csv" else { return nil }
                return (String(parts[0].prefix { $0 != " " }), path)
            }, uniquingKeysWith: { first, _ in first })
        var needsSummary: [Int] = []
        for index in export.habits.indices {
            guard let path = folderFiles[export.habits[index].position], let bytes = try file(path) else {
                needsSummary.append(index)
                continue
            }
            try export.readHabitCheckmarks(bytes, path: path, habit: index)
        }
        if !needsSummary.isEmpty, let summaryPath = paths.first(where: { $0.lowercased() == "checkmarks.csv" }), let bytes = try file(summaryPath) {
            try export.readSummaryCheckmarks(bytes, habits: needsSummary)
        }
        for index in export.habits.indices { export.habits[index].checkmarks.sort { $0.date < $1.date } }
        return export
    }

    private static func baseName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? "")
    }

    private static func records(_ bytes: [UInt8], file: String) throws(Failure) -> [[String]] {
        do {
            return try CSVParser.records(bytes)
        } catch {
            throw Failure(reason: .invalidCSV, message: "\(file), line \(error.line): \(error.message)")
        }
    }

    private static func readHabits(_ bytes: [UInt8]) throws(Failure) -> [LoopHabit] {
        let rows = try records(bytes, file: "Habits.csv")
        guard let header = rows.first?.map({ $0.trimmingWhitespace().lowercased() }) else { return [] }
        func column(_ names: String...) -> Int? { names.lazy.compactMap { header.firstIndex(of: $0) }.first }
        guard let position = column("position"), let name = column("name"),
            let numerator = column("frequencynumerator", "numrepetitions"), let denominator = column("frequencydenominator", "interval")
        else {
            throw Failure(reason: .invalidCSV, message: "Habits.csv lacks Position, Name, FrequencyNumerator or FrequencyDenominator.")
        }
        let question = column("question") ?? column("description")
        let type = column("type")
        let targetType = column("target type")
        let targetValue = column("target value")
        return try rows.dropFirst().enumerated().map { offset, row throws(Failure) in
            func field(_ index: Int?) -> String { index.flatMap { $0 < row.count ? row[$0] : nil } ?? "" }
            guard let times = Int(field(numerator)), let days = Int(field(denominator)) else {
                throw Failure(reason: .invalidCSV, message: "Habits.csv, record \(offset + 2): the frequency is not two whole numbers.")
            }
            return LoopHabit(
                position: field(position), name: field(name), question: field(question), numerator: times, denominator: days,
                isNumerical: field(type).uppercased() == "NUMERICAL", target: LoopTarget(type: field(targetType), value: field(targetValue)))
        }
    }

    private mutating func readHabitCheckmarks(_ bytes: [UInt8], path: String, habit index: Int) throws(Failure) {
        let isNumerical = habits[index].isNumerical
        for row in try Self.records(bytes, file: path) {
            let date = row[0].trimmingWhitespace()
            if date.lowercased() == "date" { continue }
            let text = row.count > 1 ? row[1].trimmingWhitespace() : ""
            guard DayText.dayNumber(date) != nil, let value = LoopCheckmark.value(text, isNumerical: isNumerical) else {
                rejections.append(Rejection(habitName: habits[index].name, date: date, text: row.joined(separator: ",")))
                continue
            }
            habits[index].checkmarks.append(LoopCheckmark(date: date, value: value, notes: row.count > 2 ? row[2] : ""))
        }
    }

    private mutating func readSummaryCheckmarks(_ bytes: [UInt8], habits indices: [Int]) throws(Failure) {
        for row in try Self.records(bytes, file: "Checkmarks.csv").dropFirst() {
            let date = row[0].trimmingWhitespace()
            for index in indices {
                let text = index + 1 < row.count ? row[index + 1].trimmingWhitespace() : ""
                guard DayText.dayNumber(date) != nil, let value = LoopCheckmark.value(text, isNumerical: habits[index].isNumerical) else {
                    rejections.append(Rejection(habitName: habits[index].name, date: date, text: text))
                    continue
                }
                habits[index].checkmarks.append(LoopCheckmark(date: date, value: value))
            }
        }
    }
}
