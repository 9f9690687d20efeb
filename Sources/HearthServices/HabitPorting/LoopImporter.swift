import FoundationEssentials
import HearthDomain
import HearthStore
import Support

/// Imports a Loop Habit Tracker "Export as CSV" archive into the signed-in user's habits (README,
/// "Importing from Loop Habit Tracker"; the mapping is ``LoopHabitMapping``'s).
///
/// Unpacking and reading the archive is CPU work proportional to its size, so it runs on the
/// import worker pool, never on an event loop; the rows are then written in one transaction,
/// through ``HabitService``'s own way of creating habits and events: checked by the same rules,
/// stored by the same statements, and recorded in the change log on the owner's topic
/// (`habit.created`, `habit_event.recorded`), so subscribers and sync clients see an import as
/// they see habits created one by one.
///
/// Idempotent: each habit is stored with the key `loop:<name>` and each event with
/// `loop:<day>` (migration 0026), so importing the same export again finds them and creates
/// nothing new; a later export of the same habits adds only the days that are new. A habit
/// renamed in Loop is a new habit here; one deleted here is created again by the next import.
public struct LoopImporter: Sendable {
    /// Creates the habits and events, with their rules and limits.
    public let habits: HabitService
    let workers: WorkerPool
    /// The limits.
    public let configuration: HabitPortingConfiguration

    /// An importer storing through `habits`, reading archives on `workers`.
    public init(habits: HabitService, workers: WorkerPool, configuration: HabitPortingConfiguration) {
        self.habits = habits
        self.workers = workers
        self.configuration = configuration
    }

    /// Imports the archive `file` for `viewer`: all of it or, when refused, nothing. A
    /// `clientMutationId` makes a replay return the first report and change nothing.
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT` on `field`: `TOO_LARGE` (with the limit in
    ///   `extensions.limit`) for a file over `--loop-import-max-bytes`, one unpacking past 16
    ///   times that, or one of more files than `--loop-import-max-files`; `INVALID_FORMAT` for a
    ///   file that is not a zip archive, a damaged one, or one without `Habits.csv`;
    ///   `LIMIT_REACHED` (field reason `NOT_ALLOWED`) when its new habits would pass
    ///   `--max-habits-per-user`; `UNAVAILABLE` when the import workers are all busy with a
    ///   queue full; ``StoreError``.
    public func importArchive(_ file: [UInt8], for viewer: Viewer, clientMutationID: String?, field: String) async throws -> LoopImportReport {
        let limits = configuration
        guard file.count <= limits.maxImportBytes else {
            throw Self.refusal(
                field, .tooLarge, "An import archive has at most \(limits.maxImportBytes) bytes; this one has \(file.count).",
                limit: limits.maxImportBytes)
        }
        let plan: LoopImportPlan
        do {
            plan = try await workers.run { try LoopImportPlan(archive: file, limits: limits, field: field) }
        } catch is WorkerPoolError {
            throw ServiceError(.unavailable, "The server is busy importing other archives; try again in a minute.")
        }
        return try await habits.mutate("importLoopHabits", by: viewer, replaying: clientMutationID) { [habits] owner, now in
            try plan.store(through: habits, owner, at: now, field: field)
        }
    }

    /// A refusal of the archive on `field`, with the limit it passed if any.
    static func refusal(_ field: String, _ reason: FieldProblem.Reason, _ message: String, limit: Int? = nil) -> ServiceError {
        var error = ServiceError(.badUserInput, message, problems: [FieldProblem(field: field, reason: reason, message: message)])
        error.limit = limit
        return error
    }
}
