import FoundationEssentials
import HearthStore

/// Exporting soon after a chore changes: a reaction (``ChangeReactions``) to the changes of a
/// chore, its instances and completions moves the export of each account it may concern forward
/// to `--google-export-delay` from now, in the change's transaction, through the scheduler
/// (``scheduleExport(_:at:)``, deduplicated per account and due time). An export already due
/// within that delay is left as it is, so a burst of edits makes one export, at most the delay
/// after the first. The accounts concerned are a personal chore's owner, and for a household chore
/// every member of its household who exports household chores (whoever it is assigned to now or
/// was before: an export that finds nothing changed sends nothing).
extension GoogleCalendarService {
    /// The changes that may change what a user's export holds.
    static let exportedChoreKinds: Set<EventKind> = [
        .choreCreated, .choreUpdated, .choreDeleted, .choreInstanceCreated, .choreInstanceChanged, .choreInstanceCancelled,
        .choreInstanceRemoved, .choreInstanceClaimed, .choreInstanceReleased, .choreInstanceReassigned, .choreInstancePaused,
        .choreInstanceResumed, .choreCompleted, .choreCompletionUndone, .choreCompletionApproved, .choreCompletionRejected,
    ]

    /// The chore a change names: its household, or its owner for a personal chore.
    private struct ChoreOwner: Decodable {
        var householdID: String?
        var userID: String?
    }

    /// Registers the reaction that exports soon after a chore change on `changeLog`.
    func registerExportSoon(on changeLog: ChangeLog, delay: Duration) {
        changeLog.reactions.register(Self.exportedChoreKinds) { [self] event, database in
            let chore = try event.payload.decode(ChoreOwner.self)
            let due = households.clock.storedNow.addingTimeInterval(Double(delay.components.seconds))
            if let householdID = chore.householdID {
                guard let access = try HouseholdAccess.scheduled(householdID: householdID, in: database) else { return }
                let members = try HouseholdScope(access, database).decode(
                    MemberRecord.self, "SELECT \(MemberRecord.columns) FROM members WHERE household_id = {household} ORDER BY id")
                for owner in Set(members.compactMap(Owner.init(accountOf:))) {
                    try exportSoon(OwnerScope(owner, database), householdChore: true, by: due)
                }
            } else if let userID = chore.userID {
                try exportSoon(OwnerScope(Owner(scheduledWorkOf: userID), database), householdChore: false, by: due)
            }
        }
    }

    /// Makes `owner`'s next export due at `due` unless one is due sooner; nothing when they export
    /// no chores (or not household chores, for `householdChore`).
    private func exportSoon(_ owner: OwnerScope, householdChore: Bool, by due: Date) throws {
        guard let connection = try Self.connection(owner), connection.status == .active, connection.exportCalendarID != nil,
              !householdChore || connection.exportsHouseholdChores
        else { return }
        let now = households.clock.storedNow
        if let next = try owner.scalar(Date.self, "SELECT next_export_at FROM google_connections WHERE user_id = {owner}"), next > now, next <= due {
            return
        }
        try scheduleExport(owner, at: due)
    }
}
