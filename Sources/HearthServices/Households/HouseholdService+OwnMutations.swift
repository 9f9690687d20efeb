import FoundationEssentials
import HearthStore

extension HouseholdService {
    /// Runs `change` in one write transaction as `viewer`'s mutation `mutation` under their
    /// ``OwnerScope``, remembered under `clientMutationID` (``MutationReplay``), about `target`
    /// (``mutate(_:by:replaying:about:at:_:)``), with the time: the shape of every mutation of a
    /// user's own objects (habits, availability events).
    func mutateOwn<Result: Codable & Sendable>(
        _ mutation: String, by viewer: Viewer, replaying clientMutationID: String?, about target: String? = nil,
        _ change: @escaping @Sendable (OwnerScope, Date) throws -> Result
    ) async throws -> Result {
        let now = clock.storedNow
        return try await mutate(mutation, by: viewer, replaying: clientMutationID, about: target, at: now) { database in
            try change(OwnerScope(Owner(viewer), database), now)
        }
    }
}
