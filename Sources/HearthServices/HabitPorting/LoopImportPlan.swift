import HearthDomain

/// An uploaded Loop export read and mapped, ready to store: the habits to import and the report
/// of what was skipped or changed on the way. Made on a worker thread (unpacking and parsing),
/// then stored: the habits in one transaction, the events in bounded ones (`+Storing`).
struct LoopImportPlan: Sendable {
    /// The habits to import, in the export's order.
    let habits: [LoopHabitMapping]
    /// What reading skipped or changed; the counts of the storing transactions are added to it.
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
