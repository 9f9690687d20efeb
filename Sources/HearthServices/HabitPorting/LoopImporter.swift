import FoundationEssentials
import HearthDomain
import HearthStore
import Support

/// Imports a Loop Habit Tracker "Export as CSV" archive into the signed-in user's habits (README,
/// "Importing from Loop Habit Tracker"; the mapping is ``LoopHabitMapping``'s).
///
/// Unpacking and reading the archive is CPU work proportional to its size, so it runs on the
/// import worker pool, never on an event loop; the rows are then written in one transaction.
///
/// Idempotent: each habit is stored with the key `loop:<name>` and each event with
/// `loop:<day>` (migration 0026), so importing the same export again finds them and creates
/// nothing new; a later export of the same habits adds only the days that are new. A habit
/// renamed in Loop is a new habit here; one deleted here is created again by the next import.
public struct LoopImporter: Sendable {
    let pool: any DatabaseWriter
    let clock: any ServiceClock
    let workers: WorkerPool
    /// The limits.
    public let configuration: HabitPortingConfiguration

    /// An importer writing to `pool`, reading archives on `workers`.
    public init(pool: any DatabaseWriter, clock: any ServiceClock, workers: WorkerPool, configuration: HabitPortingConfiguration) {
        self.pool = pool
        self.clock = clock
        self.workers = workers
        self.configuration = configuration
    }

    /// Imports the archive `file` for `viewer`. A `clientMutationId` makes a replay return the
    /// first report and change nothing.
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT` on `field`: `TOO_LARGE` (with the limit) for
    ///   a file over `--loop-import-max-bytes` or one unpacking past 16 times that,
    ///   `INVALID_FORMAT` for a file that is not a zip archive, a damaged one, or one without
    ///   `Habits.csv`; `UNAVAILABLE` when the import workers are all busy with a queue full;
    ///   ``StoreError``.
    public func importArchive(_ file: [UInt8], for viewer: Viewer, clientMutationID: String?, field: String) async throws -> LoopImportReport {
        let limit = configuration.maxImportBytes
        guard file.count <= limit else {
            throw Self.refusal(field, .tooLarge, "An import archive has at most \(limit) bytes; this one has \(file.count).")
        }
        let today = CivilCalendar.floorDivide(Int(clock.now.timeIntervalSince1970), CivilCalendar.secondsPerDay)
        let plan: LoopImportPlan
        do {
            plan = try await workers.run {
                try LoopImportPlan(archive: file, today: today, maxUnpackedBytes: limit * HabitPortingConfiguration.unpackedSizeFactor, field: field)
            }
        } catch is WorkerPoolError {
            throw ServiceError(.unavailable, "The server is busy importing other archives; try again in a minute.")
        }
        let owner = Owner(viewer)
        let now = clock.storedNow
        return try await pool.write { database in
            let scope = OwnerScope(owner, database)
            return try MutationReplay.run(clientMutationID: clientMutationID, mutation: "importLoopHabits", at: now, scope) {
                try plan.store(at: now, scope)
            }
        }
    }

    static func refusal(_ field: String, _ reason: FieldProblem.Reason, _ message: String) -> ServiceError {
        ServiceError(.badUserInput, message, problems: [FieldProblem(field: field, reason: reason, message: message)])
    }
}
