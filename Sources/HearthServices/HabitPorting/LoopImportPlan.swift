import FoundationEssentials
import HearthDomain
import HearthStore

/// An uploaded Loop export read and mapped, ready to store: the habits to import and the report
/// of what was skipped or changed on the way. Made on a worker thread (unpacking and parsing),
/// stored in one write transaction.
struct LoopImportPlan: Sendable {
    /// The habits to import, in the export's order.
    let habits: [LoopHabitMapping]
    /// What reading skipped or shortened; the counts of the store step are added to it.
    let report: LoopImportReport

    /// Reads `archive` within `limits`.
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT` on `field` (`INVALID_FORMAT`; `TOO_LARGE` with
    ///   `extensions.limit` for more files than ``HabitPortingConfiguration/maxFiles`` or CSV
    ///   files unpacking past ``HabitPortingConfiguration/maxUnpackedBytes``).
    init(archive bytes: [UInt8], limits: HabitPortingConfiguration, field: String) throws {
        let export: LoopExport
        do {
            let archive = try ZipArchive(bytes)
            let entries = archive.entries.filter { !$0.isDirectory }
            guard entries.count <= limits.maxFiles else {
                throw LoopImporter.refusal(
                    field, .tooLarge, "An import archive holds at most \(limits.maxFiles) files; this one has \(entries.count).",
                    limit: limits.maxFiles)
            }
            let files = entries.filter { $0.name.lowercased().hasSuffix(".csv") }
            let unpacked = files.reduce(0) { $0 + $1.uncompressedSize }
            guard unpacked <= limits.maxUnpackedBytes else {
                throw LoopImporter.refusal(
                    field, .tooLarge, "The archive's CSV files unpack to more than \(limits.maxUnpackedBytes) bytes.", limit: limits.maxUnpackedBytes)
            }
            export = try LoopExport.read(paths: files.map(\.name)) { path in
                try archive.entry(named: path).map { try archive.contents(of: $0, inflate: RawInflate.inflate) }
            }
        } catch let error as ZipError {
            let message = error.code == .notZip
                ? "Send the zip archive Loop Habit Tracker makes with \"Export as CSV\"."
                : "The archive cannot be read: \(error.message)."
            throw LoopImporter.refusal(field, .invalidFormat, message)
        } catch let failure as LoopExport.Failure {
            throw LoopImporter.refusal(field, .invalidFormat, failure.message)
        }
        var report = LoopImportReport()
        var habits: [LoopHabitMapping] = []
        var names = Set<String>()
        for habit in export.habits {
            let done = habit.checkmarks.filter(habit.isDone).count
            guard names.insert(habit.name).inserted else {
                report.skip(LoopImportReport.Skip(habitName: habit.name, reason: .duplicateName, eventsSkipped: done))
                continue
            }
            switch LoopHabitMapping.map(habit) {
            case .success(let mapping):
                habits.append(mapping)
                report.noteAdjustments(of: mapping)
            case .failure(let reason):
                report.skip(LoopImportReport.Skip(habitName: habit.name, reason: LoopImportReport.Skip.Reason(reason), eventsSkipped: done))
            }
        }
        for rejection in export.rejections {
            report.skip(LoopImportReport.Skip(habitName: rejection.habitName, date: rejection.date, reason: .unreadableRow, eventsSkipped: 1))
        }
        self.habits = habits
        self.report = report
    }

    /// Stores the habits and events not imported before through `service`'s one way of creating
    /// each (so they are recorded in the change log as the API's are), and returns the full
    /// report. Days are the owner's calendar days (`User.timeZone`): a habit without history
    /// starts today there, an event is recorded at its day's local noon, and a day after today
    /// there is skipped (`FUTURE_DAY`).
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT` on `field` with reason `LIMIT_REACHED` (and
    ///   `extensions.limit`) when the new habits would take the owner past
    ///   `--max-habits-per-user`, before anything is written.
    func store(through service: HabitService, _ owner: OwnerScope, at now: Date, field: String) throws -> LoopImportReport {
        var report = report
        let zone = try HabitService.timeZone(of: owner)
        let today = CalendarDay(containing: now, in: zone)
        var imported: [String: String] = [:]
        for row in try owner.query("SELECT id, import_key FROM habits WHERE user_id = {owner} AND import_key IS NOT NULL") {
            imported[try row["import_key"]] = try row["id"]
        }
        let newHabits = habits.filter { imported[Self.key($0)] == nil }.count
        let limit = service.configuration.maximumHabitsPerUser
        let count = try HabitService.habitCount(owner)
        guard count + newHabits <= limit else {
            var error = LoopImporter.refusal(
                field, .notAllowed,
                "This export would add \(newHabits) habits to your \(count); you may have \(limit). Delete some first, or import fewer.",
                limit: limit)
            error.reason = .limitReached
            throw error
        }
        for habit in habits {
            var known = Set<String>()
            let habitID: String
            if let existing = imported[Self.key(habit)] {
                habitID = existing
                report.habitsUnchanged += 1
                for row in try owner.query(
                    "SELECT import_key FROM habit_events WHERE habit_id = ? AND user_id = {owner} AND import_key IS NOT NULL", [existing]) {
                    known.insert(try row["import_key"])
                }
            } else {
                let valid = try HabitService.checked(
                    title: habit.title, reason: habit.reason, startsOn: habit.startsOn ?? today, plan: habit.plan.weekdays, visibility: .followers)
                habitID = try service.insertHabit(valid, importKey: Self.key(habit), owner, at: now)
                report.habitsCreated += 1
                report.createdHabitIDs.append(habitID)
            }
            for event in habit.events {
                let key = Self.key(event)
                if known.contains(key) {
                    report.eventsUnchanged += 1
                } else if event.day > today {
                    report.skip(LoopImportReport.Skip(habitName: habit.sourceName, date: event.day.description, reason: .futureDay, eventsSkipped: 1))
                } else {
                    _ = try service.insertEvent(
                        habitID: habitID, day: event.day, recordedAt: event.day.noon(in: zone), comment: event.comment, importKey: key, owner, at: now)
                    report.eventsCreated += 1
                }
            }
        }
        return report
    }

    /// The key an imported habit is found again by: `loop:<name as Loop wrote it>`.
    static func key(_ habit: LoopHabitMapping) -> String {
        "loop:" + habit.sourceName
    }

    /// The key an imported event is found again by within its habit: `loop:<day>`.
    static func key(_ event: LoopHabitMapping.Event) -> String {
        "loop:" + event.day.description
    }
}

extension LoopImportReport {
    /// Lists `skip` (up to ``maximumListed``) and counts its events.
    mutating func skip(_ skip: Skip) {
        if skipped.count < Self.maximumListed { skipped.append(skip) }
        eventsSkipped += skip.eventsSkipped
    }

    /// Lists what `mapping` changed.
    mutating func noteAdjustments(of mapping: LoopHabitMapping) {
        if mapping.planWasChosen {
            let weekdays = mapping.plan.weekdays.map { $0.rawValue.uppercased() }.joined(separator: " ")
            adjustments.append(Adjustment(habitName: mapping.sourceName, reason: .planChosen, storedAs: weekdays, count: 1))
        }
        if mapping.titleWasCut {
            adjustments.append(Adjustment(habitName: mapping.sourceName, reason: .titleShortened, storedAs: mapping.title, count: 1))
        }
        if mapping.reasonWasCut {
            adjustments.append(Adjustment(habitName: mapping.sourceName, reason: .reasonShortened, storedAs: mapping.reason, count: 1))
        }
        if mapping.commentsCut > 0 {
            adjustments.append(Adjustment(habitName: mapping.sourceName, reason: .commentsShortened, storedAs: nil, count: mapping.commentsCut))
        }
    }
}

extension LoopImportReport.Skip.Reason {
    /// The reason of a habit the mapping skips.
    init(_ reason: LoopHabitMapping.SkipReason) {
        switch reason {
        case .unsupportedFrequency: self = .unsupportedFrequency
        case .invalidName: self = .invalidName
        }
    }
}
