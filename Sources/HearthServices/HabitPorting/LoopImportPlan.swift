import FoundationEssentials
import HearthDomain
import HearthStore

/// An uploaded Loop export read and mapped, ready to store: the habits to import and the report
/// of what was skipped on the way. Made on a worker thread (unpacking and parsing), stored in the
/// write transaction.
struct LoopImportPlan: Sendable {
    /// The habits to import, in the export's order.
    let habits: [LoopHabitMapping]
    /// What reading skipped or shortened; the counts of the store step are added to it.
    let report: LoopImportReport

    /// Reads `archive`. `today` is the day number habits without any history start on.
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT` on `field` (`INVALID_FORMAT`, `TOO_LARGE`).
    init(archive bytes: [UInt8], today: Int, maxUnpackedBytes: Int, field: String) throws {
        let export: LoopExport
        do {
            let archive = try ZipArchive(bytes)
            let files = archive.entries.filter { !$0.isDirectory && $0.name.lowercased().hasSuffix(".csv") }
            let unpacked = files.reduce(0) { $0 + $1.uncompressedSize }
            guard unpacked <= maxUnpackedBytes else {
                throw LoopImporter.refusal(field, .tooLarge, "The archive's CSV files unpack to more than \(maxUnpackedBytes) bytes.")
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
            let done = habit.checkmarks.filter(\.isDone).count
            guard names.insert(habit.name).inserted else {
                report.skip(LoopImportReport.Skip(habitName: habit.name, reason: .duplicateName, eventsSkipped: done))
                continue
            }
            switch LoopHabitMapping.map(habit, today: today) {
            case .success(let mapping):
                habits.append(mapping)
                report.noteAdjustments(of: mapping)
            case .failure(.unsupportedFrequency):
                report.skip(LoopImportReport.Skip(habitName: habit.name, reason: .unsupportedFrequency, eventsSkipped: done))
            case .failure(.invalidName):
                report.skip(LoopImportReport.Skip(habitName: habit.name, reason: .invalidName, eventsSkipped: done))
            }
        }
        for rejection in export.rejections {
            report.skip(LoopImportReport.Skip(habitName: rejection.habitName, date: rejection.date, reason: .unreadableRow, eventsSkipped: 1))
        }
        self.habits = habits
        self.report = report
    }

    /// Stores the habits and events not imported before, and returns the full report.
    func store(at now: Date, _ owner: OwnerScope) throws -> LoopImportReport {
        var report = report
        for habit in habits {
            let key = "loop:" + habit.sourceName
            let habitID: String
            if let existing = try owner.scalar(String.self, "SELECT id FROM habits WHERE user_id = {owner} AND import_key = ?", [key]) {
                habitID = existing
                report.habitsUnchanged += 1
            } else {
                habitID = GlobalID.make(.habit, now: now).rawValue
                try owner.execute(
                    """
                    INSERT INTO habits (id, user_id, title, reason, starts_on, plan, visibility, created_at, updated_at, import_key)
                    VALUES (?, {owner}, ?, ?, ?, ?, 'followers', ?, ?, ?)
                    """, [habitID, habit.title, habit.reason, habit.startsOn, habit.plan, now, now, key])
                report.habitsCreated += 1
            }
            for event in habit.events {
                try owner.execute(
                    """
                    INSERT INTO habit_events (id, habit_id, user_id, occurred_on, recorded_at, comment, created_at, updated_at, import_key)
                    VALUES (?, ?, {owner}, ?, ?, ?, ?, ?, ?) ON CONFLICT (habit_id, import_key) DO NOTHING
                    """, [GlobalID.make(.habitEvent, now: now).rawValue, habitID, event.date, now, event.comment, now, now, "loop:" + event.date])
                if owner.database.changedRowCount == 1 { report.eventsCreated += 1 } else { report.eventsUnchanged += 1 }
            }
        }
        return report
    }
}

extension LoopImportReport {
    /// Lists `skip` (up to ``maximumListed``) and counts its events.
    mutating func skip(_ skip: Skip) {
        if skipped.count < Self.maximumListed { skipped.append(skip) }
        eventsSkipped += skip.eventsSkipped
    }

    /// Lists what `mapping` shortened.
    mutating func noteAdjustments(of mapping: LoopHabitMapping) {
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
