import FoundationEssentials
import HearthStore

/// The change-log reactions that keep notices in step with chores, each inside the transaction of
/// the change (``ChangeReactions``):
///
/// - a chore created or edited, or its instances planned: its reminders planned (``ReminderPlanner``);
/// - a household chore created: its assignees told (FR-32), its creator excepted; edited: its
///   assignees told (FR-33);
/// - an instance handed to another member while its own is away (FR-21), or back: its new holder told;
/// - a shared instance claimed: every other account's notices about it withdrawn (FR-52);
/// - a claim released: the instance's eligible members other than the former claimant told it is
///   free again (FR-53).
///
/// Each notice is keyed by the event's sequence (or the reminder's instance and offset), so it is
/// made once.
struct ChoreNotices {
    let notifier: Notifier
    let reminders: ReminderPlanner
    let clock: any ServiceClock

    /// Registers the reactions on `changeLog`.
    func register(on changeLog: ChangeLog) {
        changeLog.reactions.register([.choreCreated, .choreUpdated, .choreInstancesPlanned]) { [self] event, database in
            let change = try event.payload.decode(ChoreChange.self)
            guard let choreID = change.choreID, let scope = try ChoreAccess.scheduled(choreID: choreID, in: database)?.scope(database) else { return }
            try reminders.plan(choreID: choreID, scope, at: clock.storedNow)
            if event.kind != .choreInstancesPlanned { try tellAssignees(of: choreID, event, scope) }
        }
        changeLog.reactions.register([.choreInstanceReassigned]) { [self] event, database in
            // FR-21: redistributed from a member who is away (or gone), or given back: its new holder is told.
            let change = try event.payload.decode(ChoreInstanceChange.self)
            guard let holderID = change.memberID,
                  let scope = try ChoreAccess.scheduled(choreID: change.choreID, in: database)?.scope(database), let household = scope.household,
                  let chore = try ChoreRecord.findUnlessDeleted(id: change.choreID, scope),
                  let instance = try ChoreInstanceRecord.find(id: change.instanceID, scope),
                  let owner = Owner(accountOf: try MemberRecord.find(id: holderID, household))
            else { return }
            let draft = Notifier.Draft(
                kind: .assigned, title: chore.title, body: "Handed to you while the member it is for is away.", dueAt: instance.dueAt,
                householdID: instance.householdID, choreID: chore.id, instanceID: instance.id)
            try notifier.notify(draft, dedupeKey: "reassigned:\(event.sequence)", OwnerScope(owner, database), at: clock.storedNow)
        }
        changeLog.reactions.register([.choreInstanceClaimed, .choreInstanceReleased]) { [self] event, database in
            let change = try event.payload.decode(ChoreInstanceChange.self)
            guard let scope = try ChoreAccess.scheduled(choreID: change.choreID, in: database)?.scope(database), let household = scope.household,
                  let chore = try ChoreRecord.findUnlessDeleted(id: change.choreID, scope),
                  let instance = try ChoreInstanceRecord.find(id: change.instanceID, scope)
            else { return }
            let now = clock.storedNow
            if event.kind == .choreInstanceClaimed {
                let claimant = try instance.claimantID.map { try MemberRecord.find(id: $0, household) }
                let members = try household.decode(MemberRecord.self, "SELECT \(MemberRecord.columns) FROM members WHERE household_id = {household}")
                for member in members where member.id != claimant?.id && (member.userID == nil || member.userID != claimant?.userID) {
                    guard let owner = Owner(accountOf: member) else { continue }
                    try notifier.withdraw(instanceID: instance.id, OwnerScope(owner, database), at: now)
                }
            } else {
                let draft = Notifier.Draft(
                    kind: .released, title: chore.title, body: "Free again: the claim was released. Claim it if you'll do it.", dueAt: instance.dueAt,
                    householdID: instance.householdID, choreID: chore.id, instanceID: instance.id)
                let formerClaimant = try change.claimantID.map { try MemberRecord.find(id: $0, household) }
                for owner in try ReminderRecipients.of(instance, chore, scope) where owner.userID != formerClaimant?.userID {
                    try notifier.notify(draft, dedupeKey: "released:\(event.sequence)", OwnerScope(owner, database), at: now)
                }
            }
        }
    }

    /// Tells the assignees of household chore `choreID` (every member for `ALL_MEMBERS`) that it
    /// was assigned to them (`chore.created`, except its creator) or changed (`chore.updated`).
    private func tellAssignees(of choreID: String, _ event: Event, _ scope: ChoreScope) throws {
        guard scope.household != nil, let chore = try ChoreRecord.findUnlessDeleted(id: choreID, scope) else { return }
        let created = event.kind == .choreCreated
        let draft = Notifier.Draft(
            kind: created ? .assigned : .changed, title: chore.title,
            body: created ? "A new chore for you." : "A chore of yours was changed: look at it again.", householdID: chore.householdID,
            choreID: chore.id)
        var told = Set<String>()
        for assignee in try ChoreDetails.assignees(of: [chore], scope)[choreID] ?? [] {
            guard let owner = Owner(accountOf: assignee.member), !(created && owner.userID == chore.createdBy),
                  told.insert(owner.userID).inserted
            else { continue }
            try notifier.notify(draft, dedupeKey: "\(draft.kind.rawValue):\(event.sequence)", OwnerScope(owner, scope.database), at: clock.storedNow)
        }
    }
}
