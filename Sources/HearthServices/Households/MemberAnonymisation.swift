import HearthDomain
import HearthStore

/// What other areas do when a departing child or shadow is anonymised (COPPA; see
/// ``HouseholdService``'s departures): a table that copies personal data about a member, such as
/// the free text an admin wrote about them ("Mia cleaned her room"), clears it in the same
/// transaction as the departure, so it goes from the files with the name.
///
/// The departure knows nothing of those tables: each area registers what it clears
/// (``register(on:_:)``), and it runs as a reaction to the departure's event.
enum MemberAnonymisation {
    /// What replaces free text written about an anonymised member where a text is required
    /// (a ledger entry's note): it says that something was there, and nothing of what.
    static let erasedText = "Removed with a former member's data."

    /// Registers `erase` on `changeLog`: it runs inside the transaction of every departure that
    /// anonymises a member (after the member record is), with the member's id and the household's
    /// scope for the server's own work (``HouseholdAccess/scheduled(householdID:in:)``).
    static func register(on changeLog: ChangeLog, _ erase: @escaping @Sendable (_ memberID: String, _ scope: HouseholdScope) throws -> Void) {
        changeLog.reactions.register([.memberLeft, .memberRemoved]) { event, database in
            let change = try event.payload.decode(HouseholdChange.self)
            guard let memberID = change.memberID, let access = try HouseholdAccess.scheduled(householdID: change.householdID, in: database)
            else { return }
            let scope = HouseholdScope(access, database)
            // `member.removed` also follows a withdrawn invitation, whose member was never anyone's data.
            guard let kind = try scope.scalar(
                String.self, "SELECT kind FROM members WHERE id = ? AND household_id = {household} AND status = 'departed'", [memberID]),
                MemberKind(rawValue: kind)?.isAnonymisedOnDeparture == true
            else { return }
            try erase(memberID, scope)
        }
    }
}
