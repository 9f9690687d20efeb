import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import Testing
import TestFixtures

/// History survives departures (issue 13): a member who leaves or is removed keeps their record,
/// departed, so what they did keeps its name; everything that counts or looks up members
/// ignores departed ones; rejoining revives the record; a departed child is anonymised.
struct DepartureTests {
    @Test func aMemberWhoLeavesStaysInTheHouseholdsHistoryWithTheirNameAndWhen() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let (flat, _, anaAccess) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let benMember = try await h.join(ben, flat.id, invitedBy: ana)
            h.clock.advance(seconds: 60)
            _ = try await h.service.leaveHousehold(id: flat.id, incompleteTasks: .unassign, viewer: ben)

            let row = try #require(try await h.memberRow(benMember))
            #expect(row.status == .departed && row.departedAt == h.clock.now && row.updatedAt == h.clock.now)
            #expect(row.displayName == "ben" && row.userID == ben.userID, "an adult's record keeps their name and account")
            let listed = try await h.service.members(anaAccess)
            #expect(listed.edges.map(\.member.userID) == [ana.userID] && listed.totalCount == 1, "the list leaves them out")
            let withDeparted = try await h.service.members(anaAccess, includeDeparted: true)
            #expect(withDeparted.edges.map(\.member.id).contains(benMember) && withDeparted.totalCount == 2)
            guard case .member(let found, _)? = try await h.service.nodes(ids: [benMember], viewer: ana)[benMember] else {
                Issue.record("the household's members still reach a departed member by id")
                return
            }
            #expect(found.status == .departed && found.displayName == "ben")
        }
    }

    @Test func rejoiningRevivesTheSameMemberRecord() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let (flat, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let benMember = try await h.join(ben, flat.id, invitedBy: ana)
            _ = try await h.service.leaveHousehold(id: flat.id, incompleteTasks: .unassign, viewer: ben)
            h.clock.advance(seconds: 60)
            let invited = try await h.service.inviteMember(
                .init(householdID: flat.id, email: "ben@example.com", role: .admin), viewer: ana, clientAddress: "192.0.2.1")
            let joined = try await h.service.acceptInvitation(.token(invited.token), viewer: ben)

            #expect(joined.member.id == benMember, "the same record, so history reattaches")
            #expect(joined.member.status == .active && joined.member.departedAt == nil && joined.member.role == .admin)
            #expect(joined.member.joinedAt == h.clock.now)
            let rows = try await h.pool.read { database in
                try database.scalar(Int.self, "SELECT count(*) FROM members WHERE household_id = ? AND user_id = ?", [flat.id, ben.userID])
            }
            #expect(rows == 1)
            #expect(try await h.memberRow(invited.invitation.member.id) == nil, "the invitation's placeholder went")
            #expect(try await h.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM invitations") } == 0)
            #expect(try await h.service.activeHouseholdID(viewer: ben) == flat.id)
            try await h.expectOneActiveHouseholdPerMember()
        }
    }

    @Test func departedMembersDoNotCountTowardsTheMemberLimit() async throws {
        try await HouseholdsHarness.with(configure: { $0.maximumMembersPerHousehold = 2 }) { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            _ = try await h.confirmedViewer("cleo")
            let (flat, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            try await h.join(ben, flat.id, invitedBy: ana)
            let full = await #expect(throws: ServiceError.self) { try await h.invite("cleo@example.com", to: flat.id, by: ana) }
            #expect(full?.code == .conflict && full?.reason == .limitReached && full?.message.contains("the most allowed") == true)

            _ = try await h.service.leaveHousehold(id: flat.id, incompleteTasks: .unassign, viewer: ben)
            try await h.invite("cleo@example.com", to: flat.id, by: ana)
            let fullAgain = await #expect(throws: ServiceError.self) { try await h.invite("dan@example.com", to: flat.id, by: ana) }
            #expect(fullAgain?.code == .conflict, "the invitation counts, the departed member does not")
        }
    }

    @Test func departedMembershipsDoNotCountTowardsTheHouseholdsLimit() async throws {
        try await HouseholdsHarness.with(configure: { $0.maximumHouseholdsPerUser = 1 }) { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let (flat, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            try await h.join(ben, flat.id, invitedBy: ana)
            let full = await #expect(throws: ServiceError.self) { try await h.service.createHousehold(.init(name: "Ben's"), viewer: ben) }
            #expect(full?.code == .conflict && full?.reason == .limitReached)
            _ = try await h.service.leaveHousehold(id: flat.id, incompleteTasks: .unassign, viewer: ben)
            _ = try await h.service.createHousehold(.init(name: "Ben's"), viewer: ben)
        }
    }

    @Test func someoneWhoLeftIsNoLongerAlreadyAMemberAndMayBeInvitedBack() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let (flat, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            try await h.join(ben, flat.id, invitedBy: ana)
            let member = await #expect(throws: ServiceError.self) { try await h.invite("ben@example.com", to: flat.id, by: ana) }
            #expect(member?.reason == .alreadyMember)
            _ = try await h.service.leaveHousehold(id: flat.id, incompleteTasks: .unassign, viewer: ben)
            try await h.invite("ben@example.com", to: flat.id, by: ana)
        }
    }

    @Test func aDepartedAdminDoesNotCountForTheLastAdminRule() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let cleo = try await h.confirmedViewer("cleo")
            let (flat, anaMember, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            try await h.join(ben, flat.id, invitedBy: ana, role: .admin)
            try await h.join(cleo, flat.id, invitedBy: ana)
            _ = try await h.service.leaveHousehold(id: flat.id, incompleteTasks: .unassign, viewer: ben)

            let leaving = await #expect(throws: ServiceError.self) {
                try await h.service.leaveHousehold(id: flat.id, incompleteTasks: .unassign, viewer: ana)
            }
            #expect(leaving?.reason == .lastAdmin)
            let demoting = await #expect(throws: ServiceError.self) {
                try await h.service.changeMemberRole(memberID: anaMember.id, to: .member, viewer: ana)
            }
            #expect(demoting?.reason == .lastAdmin)
        }
    }

    @Test func aDepartedMembershipGivesNoAccessAndIsNeverTheActiveHousehold() async throws {
        try await HouseholdsHarness.with { h in
            let (ana, ben, flat, benMember) = try await h.flatWithRemovedMember()

            let access = await #expect(throws: ServiceError.self) { try await h.service.household(id: flat, viewer: ben) }
            #expect(access == ServiceError.householdNotFound)
            let switching = await #expect(throws: ServiceError.self) { try await h.service.setActiveHousehold(id: flat, viewer: ben) }
            #expect(switching == ServiceError.householdNotFound)
            #expect(try await h.service.households(viewer: ben).isEmpty)
            #expect(try await h.service.activeHousehold(viewer: ben) == nil)
            #expect(try await h.service.nodes(ids: [flat, benMember], viewer: ben).isEmpty, "nor does it reach anything by id")
            try await h.expectOneActiveHouseholdPerMember()
        }
    }

    @Test func aDepartedMemberCannotBeChangedOrRemovedAgain() async throws {
        try await HouseholdsHarness.with { h in
            let (ana, ben, flat, benMember) = try await h.flatWithRemovedMember()
            let changes: [@Sendable () async throws -> Void] = [
                { _ = try await h.service.removeMember(id: benMember, incompleteTasks: .unassign, viewer: ana) },
                { _ = try await h.service.changeMemberRole(memberID: benMember, to: .admin, viewer: ana) },
                { _ = try await h.service.updateMember(id: benMember, displayName: "Benjamin", viewer: ana) },
            ]
            for change in changes {
                let refused = await #expect(throws: ServiceError.self) { try await change() }
                #expect(refused?.code == .badUserInput && refused?.problems.first?.field == "input.memberId")
                #expect(refused?.problems.first?.reason == .notAllowed)
            }
            #expect(try await h.departures(of: flat).count == 1)
        }
    }

    /// COPPA: a removed child's or shadow's personal data goes with them; the record stays as
    /// an anonymous "Former member" so the household's history keeps its shape.
    @Test(.enabled(if: TestDatabaseStore.isSQLite, "reads the bytes of SQLite's database file and write-ahead log"))
    func aRemovedChildOrShadowIsAnonymisedInTheDatabase() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let householdID = try await h.householdID(named: "Flat", ana)
            let consent = try await h.recordConsent(householdID, .ownAccount, ana)
            let child = try await h.service.addMember(
                householdID: householdID, .init(kind: .child, displayName: "Wilhelmina Quartz", age: 8, consentID: consent.id), viewer: ana
            ).member
            let shadow = try await h.service.addMember(
                householdID: householdID, .init(kind: .shadow, displayName: "Grandpa Octavius", age: 80), viewer: ana).member
            #expect(try h.databaseFilesContain("Wilhelmina") && h.databaseFilesContain("Octavius"))
            h.clock.advance(seconds: 60)
            for member in [child, shadow] {
                _ = try await h.service.removeMember(id: member.id, incompleteTasks: .unassign, viewer: ana)
            }

            let removedChild = try #require(try await h.memberRow(child.id))
            #expect(removedChild.status == .departed && removedChild.departedAt == h.clock.now)
            #expect(removedChild.displayName == HouseholdService.formerMemberName && removedChild.age == nil && removedChild.userID == nil)
            #expect(removedChild.consentID == consent.id, "the consent link stays as the evidence the record was kept under")
            let removedShadow = try #require(try await h.memberRow(shadow.id))
            #expect(removedShadow.displayName == HouseholdService.formerMemberName && removedShadow.age == nil)
            #expect(try h.tablesContaining("Wilhelmina").isEmpty && h.tablesContaining("Octavius").isEmpty)
            #expect(try !h.databaseFilesContain("Wilhelmina") && !h.databaseFilesContain("Octavius"),
                    "not even in the database file or its write-ahead log")
        }
    }
}

extension HouseholdsHarness {
    /// Household "Flat" of its admin `ana`, from which `ben` joined and was then removed.
    fileprivate func flatWithRemovedMember() async throws -> (admin: Viewer, removed: Viewer, householdID: String, memberID: String) {
        let ana = try await confirmedViewer("ana")
        let ben = try await confirmedViewer("ben")
        let flat = try await service.createHousehold(.init(name: "Flat"), viewer: ana).household.id
        let benMember = try await join(ben, flat, invitedBy: ana)
        _ = try await service.removeMember(id: benMember, incompleteTasks: .unassign, viewer: ana)
        return (ana, ben, flat, benMember)
    }

    /// The member record `id` as stored, departed or not; `nil` when there is none.
    fileprivate func memberRow(_ id: String) async throws -> MemberRecord? {
        try await pool.read { database in
            try database.decodeOne(
                MemberRecord.self,
                """
                SELECT id, household_id, user_id, kind, role, status, display_name, age, consent_id, joined_at, updated_at, departed_at
                FROM members WHERE id = ?
                """,
                [id])
        }
    }
}
