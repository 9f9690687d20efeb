import HearthStore

/// Who a chore instance's notices are for, as accounts (a member without one, a shadow, gets
/// none): a personal chore's owner; the holder of a member's own instance (whoever holds it while
/// its member is away); the claimant of a claimed shared instance, or whoever it was handed to;
/// otherwise every eligible member who is here (FR-51: all of them at once).
enum ReminderRecipients {
    /// The accounts `instance` of `chore` concerns now, in member order, without repeats.
    static func of(_ instance: ChoreInstanceRecord, _ chore: ChoreRecord, _ scope: ChoreScope) throws -> [Owner] {
        guard let household = scope.household else { return instance.ownerID.map { [Owner(scheduledWorkOf: $0)] } ?? [] }
        let holder = instance.reassignedTo ?? instance.claimantID ?? instance.memberID
        let members = try holder.map { [try MemberRecord.find(id: $0, household)] }
            ?? InstanceOffers.eligibleMembers(try CompletionRules.of(chore, scope), instance, household)
        var seen = Set<String>()
        return members.compactMap { Owner(accountOf: $0) }.filter { seen.insert($0.userID).inserted }
    }
}
