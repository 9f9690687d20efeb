import FoundationEssentials
import HearthStore

extension JobKind {
    /// Begins a vacation scheduled to start later (``VacationStartJob``).
    public static let vacationStart: JobKind = "vacation.start"
    /// Ends a vacation at its end (``VacationEndJob``, FR-24).
    public static let vacationEnd: JobKind = "vacation.end"
}

/// The payload of the vacation jobs: which vacation.
struct VacationJobPayload: Codable {
    var vacationID: String
}

extension VacationService {
    /// The vacation of `payload` and the access scheduled work has to its household, inside `database`;
    /// `nil` when it (or its household) is gone.
    fileprivate func vacation(of job: Job, in database: Database) throws -> (VacationRecord, ChoreScope)? {
        let payload = try job.decodePayload(VacationJobPayload.self)
        guard let householdID = try database.scalar(String.self, "SELECT household_id FROM member_vacations WHERE id = ?", [payload.vacationID]),
              let scope = try ChoreAccess.scheduled(householdID: householdID, userID: nil, in: database)?.scope(database),
              let household = scope.household, let vacation = try VacationRecord.find(id: payload.vacationID, household)
        else { return nil }
        return (vacation, scope)
    }
}

/// Begins a scheduled vacation at its start, in one write transaction with the access scheduled
/// work has. Idempotent: only a vacation still `scheduled` begins (``VacationService/begin(_:_:at:)``
/// checks it in the same statement that changes it); one whose end has passed meanwhile (the
/// server was down through it) ends instead, without effects.
public struct VacationStartJob: JobHandler {
    let service: VacationService

    public var kind: JobKind { .vacationStart }

    public func run(_ job: Job) throws {
        let now = service.clock.storedNow
        try service.pool.write { database in
            guard let (vacation, scope) = try service.vacation(of: job, in: database), vacation.status == .scheduled else { return }
            if let endsAt = vacation.endsAt, endsAt <= now {
                try service.finish(vacation, scope, at: now)
            } else if vacation.startsAt > now {
                // Not yet (the clock read earlier than the job's due time): wait for it.
                try service.jobs.enqueue(
                    kind: .vacationStart, payload: VacationJobPayload(vacationID: vacation.id), dueAt: vacation.startsAt,
                    dedupeKey: "start:\(vacation.id)", in: database)
            } else {
                try service.begin(vacation, scope, at: now)
            }
        }
    }
}

/// Ends a vacation at its end (FR-24), in one write transaction with the access scheduled work
/// has, with the same effects as `endVacation`. Idempotent: a vacation ended already (by hand, or by
/// an earlier run) is left alone; being a job, it runs after a restart, however the server stopped.
public struct VacationEndJob: JobHandler {
    let service: VacationService

    public var kind: JobKind { .vacationEnd }

    public func run(_ job: Job) throws {
        let now = service.clock.storedNow
        try service.pool.write { database in
            guard let (vacation, scope) = try service.vacation(of: job, in: database), vacation.status != .ended else { return }
            guard let endsAt = vacation.endsAt, endsAt <= now else { return }
            try service.finish(vacation, scope, at: now)
        }
    }
}
