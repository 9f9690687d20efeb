import HearthDomain
import HearthStore

extension HouseholdService {
    /// A household object found by its global id, with the access the viewer's membership gives.
    public enum Node: Sendable {
        /// A household the viewer is an active member of.
        case household(HouseholdRecord, HouseholdAccess)
        /// A member (joined or invited) of a household the viewer is an active member of.
        case member(MemberRecord, HouseholdAccess)
        /// A pending invitation of a household the viewer is an admin of.
        case invitation(InvitationRecord, HouseholdAccess)
        /// A parental consent record of a household the viewer is an admin of.
        case parentalConsent(ParentalConsentRecord)
    }

    /// The households, members, invitations and parental consents among `ids` that `viewer` may see
    /// (`Query.node`/`nodes`): looked up only within the households they are an active member of
    /// (invitations and consents: an admin of), through the viewer's ``OwnerScope`` (their own
    /// memberships), so an id of another household's object is absent exactly like an unknown id.
    /// Departed members are found too, as history, with what their record still holds (a departed
    /// child's is anonymised). Each id is looked up in the one table its type
    /// (``GlobalID/Kind``) names: one query per table that has ids to look up, in one read, and no
    /// read at all when none does (ids of other types, malformed ids). Legacy bare-UUID ids are
    /// looked up in all four tables, as before ids carried their type. Each household hit is then
    /// granted through ``HouseholdAccess`` in the same snapshot.
    ///
    /// Callers bound the number of ids (the API takes at most 100); duplicates are looked up once.
    public func nodes(ids: [String], viewer: Viewer) async throws -> [String: Node] {
        var wanted: [NodeTable: [String]] = [:]
        for id in Set(ids).sorted() {
            for table in NodeTable.allCases where GlobalID.mayName(table.kind, id) {
                wanted[table, default: []].append(id)
            }
        }
        guard !wanted.isEmpty else { return [:] }
        let now = clock.storedNow
        let lookups = wanted
        return try await pool.readPreferringCallingThread { database in
            let owner = OwnerScope(Owner(viewer), database)
            var accesses: [String: HouseholdAccess] = [:]
            func access(_ householdID: String) throws -> HouseholdAccess {
                if let known = accesses[householdID] { return known }
                let granted = try HouseholdAccess.check(viewer: viewer, householdID: householdID, in: database)
                accesses[householdID] = granted
                return granted
            }
            var found: [String: Node] = [:]
            for table in NodeTable.allCases {
                guard let ids = lookups[table] else { continue }
                let sql = table.query(placeholders: Array(repeating: "?", count: ids.count).joined(separator: ", "))
                let bound = StatementArguments(ids.map { $0 as (any DatabaseValueConvertible)? })
                switch table {
                case .households:
                    for household in try owner.decode(HouseholdRecord.self, sql, bound) {
                        found[household.id] = .household(household, try access(household.id))
                    }
                case .members:
                    for member in try owner.decode(MemberRecord.self, sql, bound) {
                        found[member.id] = .member(member, try access(member.householdID))
                    }
                case .invitations:
                    for invitation in try owner.decode(StoredInvitation.self, sql, bound) {
                        let scope = HouseholdScope(try access(invitation.householdID), database)
                        found[invitation.id] = .invitation(try invitation.record(scope, at: now), scope.access)
                    }
                case .parentalConsents:
                    for consent in try owner.decode(ParentalConsentRecord.self, sql, bound) {
                        found[consent.id] = .parentalConsent(consent)
                    }
                }
            }
            return found
        }
    }
}

/// The tables `node`/`nodes` read household objects from, each with the type of its ids and
/// its query: rows among the ids, within the viewer's households (admins only for
/// invitations and consents), which the owner scope names. (Each statement spells the viewer's
/// memberships out, so the scope marker is in the statement that names the table.)
private enum NodeTable: CaseIterable {
    case households, members, invitations, parentalConsents

    /// The type of the table's ids.
    var kind: GlobalID.Kind {
        switch self {
        case .households: .household
        case .members: .member
        case .invitations: .invitation
        case .parentalConsents: .parentalConsent
        }
    }

    /// The owner-scoped query for ids bound at `placeholders`.
    func query(placeholders: String) -> String {
        switch self {
        case .households:
            """
            SELECT \(HouseholdRecord.columns) FROM households
            WHERE id IN (\(placeholders)) AND id IN (SELECT household_id FROM members WHERE user_id = {owner} AND status = 'active')
            """
        case .members:
            """
            SELECT \(MemberRecord.columns) FROM members
            WHERE id IN (\(placeholders)) AND household_id IN (SELECT household_id FROM members WHERE user_id = {owner} AND status = 'active')
            """
        case .invitations:
            """
            SELECT \(StoredInvitation.columns) FROM invitations
            WHERE id IN (\(placeholders))
              AND household_id IN (SELECT household_id FROM members WHERE user_id = {owner} AND status = 'active' AND role = 'admin')
            """
        case .parentalConsents:
            """
            SELECT \(ParentalConsentRecord.columns) FROM parental_consents
            WHERE id IN (\(placeholders))
              AND household_id IN (SELECT household_id FROM members WHERE user_id = {owner} AND status = 'active' AND role = 'admin')
            """
        }
    }
}
