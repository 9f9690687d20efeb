import HearthStore

/// Who a chore instance's notices are for, as accounts (a member without one, a shadow, gets
/// none): a personal chore's owner; the holder of a member's own instance (whoever holds it while
/// its member is away); the claimant of a claimed shared instance, or whoever it was handed to;
/// otherwise every eligible member who is here (FR-51: all of them at once).
///
/// A household chore's notices go only to accounts whose active household it is (FR-11: the
/// household they are present in and responsible for now). Someone who belongs to two households
/// is reminded of the chores of the one they are in; switching their active household moves their
/// reminders with it (decided when each reminder fires, ``ReminderJob``).
enum ReminderRecipients {
    /// The accounts `instance` of `chore` concerns now, in member order, without repeats.
    static func of(_ instance: ChoreInstanceRecord, _ chore: ChoreRecord, _ scope: ChoreScope) throws -> [Owner] {
        guard let household = scope.household else { return instance.ownerID.map { [Owner(scheduledWorkOf: $0)] } ?? [] }
        let holder = instance.reassignedTo ?? instance.claimantID ?? instance.memberID
        let members = try holder.map { [try MemberRecord.find(id: $0, household)] }
            ?? InstanceOffers.eligibleMembers(try CompletionRules.of(chore, scope), instance, household)
        var seen = Set<String>()
        return try members.compactMap { Owner(accountOf: $0) }.filter { owner in
            try seen.insert(owner.userID).inserted && ActiveHousehold.id(OwnerScope(owner, scope.database)) == household.access.householdID
        }
    }
}
