import FoundationEssentials
import HearthStore

/// The change-log reaction that follows a user's switch of active household (FR-11), inside the
/// switch's transaction: household chores remind the members whose active household it is
/// (``ReminderRecipients``), so from now on reminders of the new household's instances reach them
/// and the previous household's do not. Here the previous household's open notices (delivered,
/// not dismissed) are withdrawn from their devices, and the user is told once (keyed by the event's
/// sequence) on their channels.
struct HouseholdSwitchNotices {
    let notifier: Notifier
    let clock: any ServiceClock

    /// Registers the reaction on `changeLog`.
    func register(on changeLog: ChangeLog) {
        changeLog.reactions.register([.activeHouseholdChanged]) { [self] event, database in
            let change = try event.payload.decode(ActiveHouseholdChange.self)
            guard let access = try HouseholdAccess.scheduled(householdID: change.householdID, in: database) else { return }
            let household = try HouseholdRecord.find(HouseholdScope(access, database))
            let owner = OwnerScope(Owner(scheduledWorkOf: change.userID), database)
            let now = clock.storedNow
            var body = "Reminders of \(household.name)'s chores come to you now."
            if let previous = change.previousHouseholdID {
                try notifier.withdraw(householdID: previous, owner, at: now)
                let previousName = try HouseholdAccess.scheduled(householdID: previous, in: database)
                    .map { try HouseholdRecord.find(HouseholdScope($0, database)).name }
                if let previousName { body += " \(previousName)'s stop." }
            }
            let draft = Notifier.Draft(kind: .activeHouseholdChanged, title: household.name, body: body, householdID: household.id)
            try notifier.notify(draft, dedupeKey: "active-household:\(event.sequence)", owner, at: now)
        }
    }
}
