import FoundationEssentials
import HearthStore

extension JobKind {
    /// Offers one shared chore instance to its eligible members when it comes due (``InstanceOfferJob``).
    public static let choreOffer: JobKind = "chore.offer"
}

/// The durable half of offers (FR-51, ``InstanceOffers``): at an instance's due time, in one write
/// transaction with the access scheduled work has, offers it to its eligible members when more
/// than one is eligible and it is still open (not paused), unclaimed, not handed to a member while its
/// own is away (vacation mode), not yet offered and its chore's latest
/// due occurrence. Idempotent: the offer is recorded on the instance, and an instance gone
/// (recalculated away, its chore or household deleted) is skipped.
public struct InstanceOfferJob: JobHandler {
    /// The instance to offer.
    struct Payload: Codable {
        var instanceID: String
        /// Its chore, through which the job finds its scope.
        var choreID: String
    }

    let service: ChoreInstanceService

    public var kind: JobKind { .choreOffer }

    public func run(_ job: Job) throws {
        let payload = try job.decodePayload(Payload.self)
        let now = service.clock.storedNow
        let offers = service.planner.offers
        try service.pool.write { database in
            let choreID = payload.choreID
            guard let scope = try ChoreAccess.scheduled(choreID: choreID, in: database)?.scope(database),
                  let chore = try ChoreRecord.findUnlessDeleted(id: choreID, scope),
                  let instance = try ChoreInstanceRecord.find(id: payload.instanceID, scope),
                  instance.status == .pending, instance.claimantID == nil, instance.reassignedTo == nil
            else { return }
            guard instance.dueAt <= now else {
                // Not due yet (its due time moved later): the offer waits for it.
                try offers.schedule(instance, of: chore, scope)
                return
            }
            let superseded = try scope.scalar(
                Bool.self,
                """
                SELECT offered_at IS NOT NULL OR EXISTS (
                    SELECT 1 FROM chore_instances later WHERE later.chore_id = ? AND later.{scope} AND later.member_id IS NULL
                    AND later.due_at > ? AND later.due_at <= ?)
                FROM chore_instances WHERE id = ? AND {scope}
                """,
                [choreID, instance.dueAt, now, instance.id]) ?? true
            guard !superseded else { return }
            try offers.offer(instance, rules: try CompletionRules.of(chore, scope), minimum: 2, scope, at: now)
        }
    }
}
