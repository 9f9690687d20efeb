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
    /// (invitations and consents: an admin of), so
    /// an id of another household's object is absent exactly like an unknown id. One query per table, in
    /// one read; each household hit is then granted through ``HouseholdAccess`` in the same snapshot.
    ///
    /// Callers bound the number of ids (the API takes at most 100); duplicates are looked up once.
    public func nodes(ids: [String], viewer: Viewer) async throws -> [String: Node] {
        let wanted = Array(Set(ids)).sorted()
        guard !wanted.isEmpty else { return [:] }
        let now = currentTime()
        return try await pool.readPreferringCallingThread { database in
            let placeholders = Array(repeating: "?", count: wanted.count).joined(separator: ", ")
            let viewersHouseholds = "SELECT household_id FROM members WHERE user_id = ? AND status = 'active'"
            var arguments: [(any DatabaseValueConvertible)?] = wanted.map { $0 as (any DatabaseValueConvertible)? }
            arguments.append(viewer.userID)
            let households = try database.decode(
                HouseholdRecord.self,
                "SELECT \(HouseholdRecord.columns) FROM households WHERE id IN (\(placeholders)) AND id IN (\(viewersHouseholds))",
                StatementArguments(arguments))
            let members = try database.decode(
                MemberRecord.self,
                "SELECT \(MemberRecord.columns) FROM members WHERE id IN (\(placeholders)) AND household_id IN (\(viewersHouseholds))",
                StatementArguments(arguments))
            let invitations = try database.decode(
                StoredInvitation.self,
                """
                SELECT \(StoredInvitation.columns) FROM invitations
                WHERE id IN (\(placeholders)) AND household_id IN (\(viewersHouseholds) AND role = 'admin')
                """,
                StatementArguments(arguments))
            let consents = try database.decode(
                ParentalConsentRecord.self,
                """
                SELECT \(ParentalConsentRecord.columns) FROM parental_consents
                WHERE id IN (\(placeholders)) AND household_id IN (\(viewersHouseholds) AND role = 'admin')
                """,
                StatementArguments(arguments))
            var accesses: [String: HouseholdAccess] = [:]
            func access(_ householdID: String) throws -> HouseholdAccess {
                if let known = accesses[householdID] { return known }
                let granted = try HouseholdAccess.check(viewer: viewer, householdID: householdID, in: database)
                accesses[householdID] = granted
                return granted
            }
            var found: [String: Node] = [:]
            for household in households {
                found[household.id] = .household(household, try access(household.id))
            }
            for member in members {
                found[member.id] = .member(member, try access(member.householdID))
            }
            for invitation in invitations {
                let access = try access(invitation.householdID)
                found[invitation.id] = .invitation(try invitation.record(access, at: now, in: database), access)
            }
            for consent in consents {
                found[consent.id] = .parentalConsent(consent)
            }
            return found
        }
    }
}
