import FoundationEssentials
import HearthStore

/// The seam between the token economy and the chore instances that own completions: what
/// `approveCompletion` and `rejectCompletion` need to read and change of a completion, inside
/// their write transaction. The instances' completion table implements it (written against
/// `chore_completions` with `id`, `household_id`, `instance_id`, `chore_id`, `member_id`,
/// `status`); ``TokenService`` credits the tokens itself.
///
/// The other direction needs no protocol: recording a completion that needs no approval, and
/// undoing one, call ``TokenService/credit(completion:recordedBy:in:at:)`` and
/// ``TokenService/reverse(completion:recordedBy:in:at:)`` in their own transaction.
protocol ChoreCompletionStore: Sendable {
    /// The household of the completion `id`, looked up by id before any access exists (the
    /// caller then checks the viewer's membership of it); `nil` for an unknown id, or one that is
    /// not a completion's (without a read).
    func householdID(ofCompletion id: String, in database: Database) throws -> String?

    /// The completion `id` of the household of `scope`; `nil` when it has none by that id.
    func completion(id: String, _ scope: HouseholdScope) throws -> ReviewableCompletion?

    /// Records the completion `id` as approved by `reviewer` at `now`: it counts as done from then on.
    func markApproved(id: String, by reviewer: HouseholdAccess, at now: Date, _ scope: HouseholdScope) throws

    /// Records the completion `id` as rejected by `reviewer` at `now` with the optional `reason`,
    /// and opens its instance again.
    func markRejected(id: String, reason: String?, by reviewer: HouseholdAccess, at now: Date, _ scope: HouseholdScope) throws
}

/// The completion store of a build without chore instances: no completion exists, so every
/// completion id answers `NOT_FOUND`. The chore instances' store takes its place in the
/// application's wiring when they arrive.
struct NoChoreCompletions: ChoreCompletionStore {
    func householdID(ofCompletion id: String, in database: Database) throws -> String? { nil }
    func completion(id: String, _ scope: HouseholdScope) throws -> ReviewableCompletion? { nil }
    func markApproved(id: String, by reviewer: HouseholdAccess, at now: Date, _ scope: HouseholdScope) throws {}
    func markRejected(id: String, reason: String?, by reviewer: HouseholdAccess, at now: Date, _ scope: HouseholdScope) throws {}
}
