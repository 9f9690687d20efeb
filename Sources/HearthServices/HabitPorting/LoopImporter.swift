import FoundationEssentials
import HearthDomain
import HearthStore
import Support

/// Imports a Loop Habit Tracker "Export as CSV" archive into the signed-in user's habits (README,
/// "Importing from Loop Habit Tracker"; the mapping is ``LoopHabitMapping``'s).
///
/// Unpacking and reading the archive is CPU work proportional to its size, so it runs on the
/// import worker pool, never on an event loop. The rows are written through ``HabitService``'s
/// own way of creating habits and events: checked by the same rules, stored by the same
/// statements, and recorded in the change log on the owner's topic (`habit.created`,
/// `habit_event.recorded`), so subscribers and sync clients see an import as they see habits
/// created one by one. The first transaction checks the limits and creates the habits; the
/// events follow in transactions of at most `--loop-import-events-per-transaction`, so years of
/// history never hold the database's one writer for long (other users' writes go in between).
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

    /// Imports the archive `file` for `viewer`. A refusal stores nothing; should the server stop
    /// between the transactions of an import's events, importing the archive again adds the rest.
    /// A `clientMutationId` makes a replay return the first report and change nothing.
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
        let started = try await write(as: viewer) { [habits] owner, now -> Start in
            if let first: LoopImportReport = try MutationReplay.stored(clientMutationID: clientMutationID, mutation: Self.mutation, owner) {
                return .replay(first)
            }
            return .first(try plan.storeHabits(through: habits, owner, at: now, field: field))
        }
        var progress: LoopImportProgress
        switch started {
        case .first(let habitsStored): progress = habitsStored
        case .replay(let report): return report
        }
        let events = progress.events
        let zone = progress.zone
        for start in stride(from: 0, to: events.count, by: limits.eventsPerTransaction) {
            let batch = events[start..<min(start + limits.eventsPerTransaction, events.count)]
            let counts = try await write(as: viewer) { [habits] owner, now in
                try LoopImportPlan.storeEvents(batch, zone: zone, through: habits, owner, at: now)
            }
            progress.report.eventsCreated += counts.created
            progress.report.eventsUnchanged += counts.unchanged
            progress.report.eventsSkipped += counts.skipped
        }
        let report = progress.report
        if clientMutationID != nil {
            try await write(as: viewer) { owner, now in
                try MutationReplay.record(report, clientMutationID: clientMutationID, mutation: Self.mutation, at: now, owner)
            }
        }
        return report
    }

    /// What an import's first transaction did: stored the habits, or found the report of an
    /// import with the same `clientMutationId` (a replay, which changes nothing).
    private enum Start: Sendable {
        case first(LoopImportProgress)
        case replay(LoopImportReport)
    }

    /// The mutation's name, under which replays are kept.
    static let mutation = "importLoopHabits"

    /// Runs `body` in a write transaction of its own as `viewer`, with the time.
    private func write<Result: Sendable>(
        as viewer: Viewer, _ body: @escaping @Sendable (OwnerScope, Date) throws -> Result
    ) async throws -> Result {
        let now = habits.clock.storedNow
        return try await habits.pool.write { database in try body(OwnerScope(Owner(viewer), database), now) }
    }

    /// A refusal of the archive on `field`, with the limit it passed if any.
    static func refusal(_ field: String, _ reason: FieldProblem.Reason, _ message: String, limit: Int? = nil) -> ServiceError {
        var error = ServiceError(.badUserInput, message, problems: [FieldProblem(field: field, reason: reason, message: message)])
        error.limit = limit
        return error
    }
}
