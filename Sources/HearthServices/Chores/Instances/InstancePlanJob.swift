import FoundationEssentials
import HearthStore

extension JobKind {
    /// Plans one chore's instances (``InstancePlanJob``) when its next occurrence comes within the
    /// horizon, or a one-off instance is to be archived.
    public static let chorePlan: JobKind = "chore.plan"
}

/// The durable half of instance planning: runs ``InstancePlanner`` for one chore, in one write
/// transaction, with the access scheduled work has (``ChoreAccess/scheduled(choreID:in:)``). The
/// planner enqueues the next run itself, keyed by chore and due time, so one job holds each.
///
/// Idempotent: planning computes from the stored state, so a second run of the same job writes
/// nothing new; a chore deleted (or a household gone) meanwhile is skipped.
public struct InstancePlanJob: JobHandler {
    /// The chore to plan.
    struct Payload: Codable {
        var choreID: String
    }

    let service: ChoreInstanceService

    public var kind: JobKind { .chorePlan }

    public func run(_ job: Job) throws {
        let payload = try job.decodePayload(Payload.self)
        let now = service.clock.storedNow
        try service.pool.write { database in
            guard let scope = try ChoreAccess.scheduled(choreID: payload.choreID, in: database)?.scope(database),
                  let chore = try ChoreRecord.findUnlessDeleted(id: payload.choreID, scope)
            else { return }
            try service.planner.plan(chore, scope, at: now)
        }
    }
}
