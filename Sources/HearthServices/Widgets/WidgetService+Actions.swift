import FoundationEssentials
import HearthStore

/// How a one-tap action ended (``WidgetService/perform(_:viewer:)``).
public enum WidgetActionOutcome: String, Sendable, Hashable, CaseIterable {
    /// The instance is done.
    case completed = "COMPLETED"
    /// The instance is done and waits for an admin's approval.
    case pendingApproval = "PENDING_APPROVAL"
    /// One step of it is done (the chore gained steps after the link was made).
    case stepCompleted = "STEP_COMPLETED"
    /// Nothing changed: the link was used before, or the instance was done already (by anyone).
    case alreadyDone = "ALREADY_DONE"
    /// Nothing changed: the link has expired (its day is over).
    case expired = "EXPIRED"
    /// Nothing changed: the link is not one this server made (altered, or malformed), or it was
    /// made for another account than the credential's.
    case forbidden = "FORBIDDEN"
}

extension WidgetService {
    /// Carries out the action link whose token is `token`, sent with `viewer`'s credential (a
    /// widget token or an access token).
    ///
    /// In order: the link must be this server's (else ``WidgetActionOutcome/forbidden``) and made
    /// for `viewer` (else `forbidden` too), and not expired (``WidgetActionOutcome/expired``).
    /// Then the instance is completed through ``ChoreInstanceService/completeChore(_:viewer:clientMutationID:)``,
    /// with its permission and approval rules; an instance of another household than the active
    /// one completes without switching (`COMPLETE_ANYWAY`: a widget cannot ask). The completion
    /// carries a `clientMutationId` derived from the link, so a link changes something at most
    /// once: a second use finds the first's record and is ``WidgetActionOutcome/alreadyDone``,
    /// as is a link of an instance someone completed already.
    /// - Throws: what `completeChore` throws: `FORBIDDEN` (`CHORE_COMPLETERS`) when the viewer may
    ///   not complete it, `NOT_FOUND` when it is gone or out of reach, `CONFLICT` (`INSTANCE_CLOSED`).
    public func perform(_ token: String, viewer: Viewer) async throws -> (outcome: WidgetActionOutcome, instanceID: String?) {
        let link: WidgetActionLinks.Link
        switch links.verify(token, at: clock.now) {
        case .invalid: return (.forbidden, nil)
        case .expired(let expired): return (expired.userID == viewer.userID ? .expired : .forbidden, nil)
        case .valid(let valid): link = valid
        }
        guard link.userID == viewer.userID else { return (.forbidden, nil) }
        let clientMutationID = "widget:\(link.action.rawValue):\(link.instanceID)"
        let used = try await pool.readPreferringCallingThread { database in
            try MutationReplay.stored(clientMutationID: clientMutationID, mutation: "completeChore", OwnerScope(Owner(viewer), database))
                as CompletionReference?
        }
        if used != nil { return (.alreadyDone, link.instanceID) }
        let result = try await instances.completeChore(
            CompletionRequest(instanceID: link.instanceID, crossHousehold: .completeAnyway), viewer: viewer, clientMutationID: clientMutationID)
        let outcome: WidgetActionOutcome = switch result.outcome {
        case .completed: .completed
        case .pendingApproval: .pendingApproval
        case .stepCompleted: .stepCompleted
        // Not reached with a choice given; nothing was recorded either way.
        case .alreadyCompleted, .crossHouseholdChoiceRequired: .alreadyDone
        }
        return (outcome, link.instanceID)
    }
}
