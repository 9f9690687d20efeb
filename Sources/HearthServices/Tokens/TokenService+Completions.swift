import FoundationEssentials
import HearthDomain
import HearthStore

extension TokenService {
    /// A completion an admin decided on, with what approving it credited.
    public struct ReviewedCompletion: Sendable {
        /// The completion as it is now.
        public var completion: ChoreCompletionRecord
        /// The credits written, one per member who got tokens (none when rejected, or for a chore worth 0).
        public var entries: [LedgerEntryRecord]
        /// The admin's access to the household.
        public var access: HouseholdAccess
        /// The same access, to the household's chores (for reading the completion's instance and chore).
        public var choreAccess: ChoreAccess
    }

    /// Approves a completion waiting for approval (`PENDING_APPROVAL`, FR-ONBOARD-6): the chore
    /// instances settle it (it counts as done; the household's first completed chore is recorded
    /// there) and its tokens are credited in the same transaction (``TokenCredits``). Admins only.
    /// - Throws: `NOT_FOUND` for an unknown completion or one of a household the viewer is not in
    ///   (a personal chore's too); `FORBIDDEN` (`ADMINS_ONLY`) for members; `CONFLICT` with reason
    ///   `ALREADY_REVIEWED` when it is not waiting; `CONFLICT` for a reused `clientMutationID`.
    public func approveCompletion(id: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> ReviewedCompletion {
        try await review("approveCompletion", id: id, approve: true, note: nil, viewer: viewer, clientMutationID: clientMutationID)
    }

    /// Rejects a completion waiting for approval, with an optional reason (one line, up to 80
    /// characters): no tokens are credited and its instance is to do again. Admins only.
    /// - Throws: as ``approveCompletion(id:viewer:clientMutationID:)``; `BAD_USER_INPUT` on `input.reason`.
    public func rejectCompletion(id: String, reason: String?, viewer: Viewer, clientMutationID: String? = nil) async throws -> ReviewedCompletion {
        var problems = ProblemCollector()
        let reason = problems.check { () throws(FieldProblem) in try DisplayText.optionalLabel(reason, field: "input.reason") } ?? nil
        try problems.throwIfAny()
        return try await review("rejectCompletion", id: id, approve: false, note: reason, viewer: viewer, clientMutationID: clientMutationID)
    }

    /// Settles the completion `id` as the viewer, an admin, and returns it with its credits.
    private func review(
        _ mutation: String, id: String, approve: Bool, note: String?, viewer: Viewer, clientMutationID: String?
    ) async throws -> ReviewedCompletion {
        let settled = try await mutate(mutation, by: viewer, replaying: clientMutationID) { [instances] database, now in
            let scope = try HouseholdScope.check(viewer: viewer, owning: .choreCompletions, id: id, notFound: .completionNotFound, in: database)
            _ = try instances.settleApproval(completionID: id, approve: approve, note: note, by: scope.access, in: database, at: now)
            return ReviewedCompletionReference(householdID: scope.access.householdID, completionID: id)
        }
        let (reviewed, access) = try await read(in: settled.householdID, as: viewer) { scope in
            let choreAccess = ChoreAccess(scope.access)
            guard let completion = try ChoreCompletionRecord.find(id: settled.completionID, choreAccess.scope(scope.database)) else {
                throw ServiceError.completionNotFound
            }
            return (completion, try TokenCredits.entries(of: settled.completionID, kind: .credit, scope), choreAccess)
        }
        return ReviewedCompletion(completion: reviewed.0, entries: reviewed.1, access: access, choreAccess: reviewed.2)
    }
}

/// The completion a mutation's result names, as ``MutationReplay`` stores it for a replay.
struct ReviewedCompletionReference: Codable {
    var householdID: String
    var completionID: String
}
