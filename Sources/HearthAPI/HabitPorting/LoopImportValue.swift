import GraphQL
import HearthServices

/// A ``LoopImportReport`` as the schema's `LoopImportResult` (and `POST /import/loop`'s body).
enum LoopImportValue {
    /// The report as JSON, its members named as the schema's fields.
    static func json(_ report: LoopImportReport) -> JSON {
        [
            "habitsCreated": .int(report.habitsCreated), "createdHabitIds": .array(report.createdHabitIDs.map(JSON.string)),
            "habitsUnchanged": .int(report.habitsUnchanged),
            "eventsCreated": .int(report.eventsCreated), "eventsUnchanged": .int(report.eventsUnchanged),
            "eventsSkipped": .int(report.eventsSkipped),
            "skipped": .array(report.skipped.map { skip in
                [
                    "habitName": .string(skip.habitName), "date": skip.date.map(JSON.string) ?? .null,
                    "reason": .string(skip.reason.rawValue), "eventsSkipped": .int(skip.eventsSkipped),
                ]
            }),
            "adjustments": .array(report.adjustments.map { adjustment in
                [
                    "habitName": .string(adjustment.habitName), "reason": .string(adjustment.reason.rawValue),
                    "storedAs": adjustment.storedAs.map(JSON.string) ?? .null, "count": .int(adjustment.count),
                ]
            }),
        ]
    }
}
