import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import Testing
import TestFixtures

/// Editing and deleting households, the active household, roles and departures (FR-08 –
/// FR-11, FR-14 – FR-17), the members list and the user's time zone, at the service level.
///
/// Second members join as people do: invited by an admin, they accept (`join`).
struct MembershipTests {
    // MARK: - Editing (FR-08)

    @Test func anAdminEditsSomeFieldsAndTheOthersStayAsTheyWere() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let (household, _, _) = try await h.service.createHousehold(
                .init(name: "Flat", emoji: "🏠", locationLabel: "Lisbon", timeZone: "Europe/Lisbon"), viewer: ana)
            h.clock.advance(seconds: 60)
            let (edited, _) = try await h.service.updateHousehold(
                id: household.id, .init(name: "  City Flat ", locationLabel: .some(nil)), viewer: ana)
            #expect(edited.name == "City Flat")
            #expect(edited.emoji == "🏠")
            #expect(edited.locationLabel == nil)
            #expect(edited.timeZone == "Europe/Lisbon")
            #expect(edited.updatedAt == h.clock.now)
            let (zoned, _) = try await h.service.updateHousehold(
                id: household.id, .init(emoji: .some(nil), timeZone: "America/New_York"), viewer: ana)
            #expect(zoned.emoji == nil && zoned.timeZone == "America/New_York" && zoned.name == "City Flat")
            #expect(try await h.kinds(of: household.id) == ["household.created", "household.updated", "household.updated"])
        }
    }

    @Test func accessesGrantingTheSameAreEqualWhateverTheMemberIsCalledAndDifferByRole() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let (household, member, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let before = try await h.service.access(viewer: ana, householdID: household.id)
            _ = try await h.service.updateMember(id: member.id, displayName: "Ana M.", viewer: ana)
            let renamed = try await h.service.access(viewer: ana, householdID: household.id)
            #expect(renamed.member.displayName == "Ana M." && before.member.displayName != "Ana M.")
            #expect(renamed == before)
            #expect(Set([before, renamed]).count == 1)
            let ben = try await h.confirmedViewer("ben")
            let benMember = try await h.join(ben, household.id, invitedBy: ana)
            _ = try await h.service.changeMemberRole(memberID: benMember, to: .admin, viewer: ana)
            let benAdmin = try await h.service.access(viewer: ben, householdID: household.id)
            _ = try await h.service.changeMemberRole(memberID: member.id, to: .member, viewer: ben)
            #expect(try await h.service.access(viewer: ana, householdID: household.id) != before)
            #expect(benAdmin != before)
        }
    }

    @Test func anEditThatChangesNothingWritesNothing() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let (household, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            h.clock.advance(seconds: 60)
            let (same, _) = try await h.service.updateHousehold(id: household.id, .init(name: "Flat", emoji: .some(nil)), viewer: ana)
            #expect(same == household)
            #expect(try await h.kinds(of: household.id) == ["household.created"])
        }
    }

    @Test func reportsEveryBadFieldAtOnceAndChangesNothing() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let (household, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let error = await #expect(throws: ServiceError.self) {
                try await h.service.updateHousehold(
                    id: household.id,
                    .init(name: .some(nil), emoji: "ab", locationLabel: .some(String(repeating: "x", count: 81)), timeZone: .some(nil)),
                    viewer: ana)
            }
            #expect(error?.code == .badUserInput)
            #expect(error?.problems.map(\.field) == ["input.name", "input.emoji", "input.locationLabel", "input.timeZone"])
            #expect(error?.problems.map(\.reason) == [.required, .invalidFormat, .tooLong, .required])
            let unknownZone = await #expect(throws: ServiceError.self) {
                try await h.service.updateHousehold(id: household.id, .init(timeZone: "Mars/Olympus"), viewer: ana)
            }
            #expect(unknownZone?.problems.first?.reason == .unknownValue)
            #expect(try await h.service.household(id: household.id, viewer: ana).record == household)
        }
    }

    @Test func membersCannotEditAndStrangersCannotTellTheHouseholdExists() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let eve = try await h.confirmedViewer("eve")
            let (household, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            try await h.join(ben, household.id, invitedBy: ana)
            let forbidden = await #expect(throws: ServiceError.self) {
                try await h.service.updateHousehold(id: household.id, .init(name: "Mine"), viewer: ben)
            }
            #expect(forbidden?.code == .forbidden)
            let notFound = await #expect(throws: ServiceError.self) {
                try await h.service.updateHousehold(id: household.id, .init(name: "Mine"), viewer: eve)
            }
            #expect(notFound == ServiceError.householdNotFound)
            let unknown = await #expect(throws: ServiceError.self) {
                try await h.service.updateHousehold(id: "no-such-household", .init(name: "Mine"), viewer: eve)
            }
            #expect(unknown == notFound)
        }
    }

    // MARK: - Deleting (FR-09)

    @Test func deletingNeedsTheExactNameAndAnAdmin() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let (household, _, _) = try await h.service.createHousehold(.init(name: "City Flat"), viewer: ana)
            try await h.join(ben, household.id, invitedBy: ana)
            for attempt in ["city flat", "City Flat ", ""] {
                let error = await #expect(throws: ServiceError.self) {
                    try await h.service.deleteHousehold(id: household.id, confirmName: attempt, viewer: ana)
                }
                #expect(error?.code == .badUserInput)
                #expect(error?.problems.first?.field == "input.confirmName" && error?.problems.first?.reason == .mismatch)
            }
            let forbidden = await #expect(throws: ServiceError.self) {
                try await h.service.deleteHousehold(id: household.id, confirmName: "City Flat", viewer: ben)
            }
            #expect(forbidden?.code == .forbidden)
            #expect(try await h.service.household(id: household.id, viewer: ana).record == household)
        }
    }

    @Test func deletingRecordsTheEventAndMovesEveryMembersActiveHousehold() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let (home, _, _) = try await h.service.createHousehold(.init(name: "Home"), viewer: ben)
            h.clock.advance(seconds: 1)
            let (flat, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            try await h.join(ben, flat.id, invitedBy: ana)
            _ = try await h.service.setActiveHousehold(id: flat.id, viewer: ben)
            try await h.expectOneActiveHouseholdPerMember()
            let subscription = h.bus.subscribe(to: [.household(flat.id)], bufferSize: 8)
            let departure = try await h.service.deleteHousehold(id: flat.id, confirmName: "Flat", viewer: ana)
            #expect(departure.householdID == flat.id)
            #expect(departure.activeHousehold == nil)
            #expect(try await h.service.activeHouseholdID(viewer: ben) == home.id)
            try await h.expectOneActiveHouseholdPerMember()
            let event = try #require(await firstEvent(of: subscription))
            #expect(event.kind == .householdDeleted)
            #expect(try event.payload.decode(HouseholdChange.self) == HouseholdChange(householdID: flat.id))
            #expect(try await h.kinds(of: flat.id).last == "household.deleted")
            let gone = await #expect(throws: ServiceError.self) { try await h.service.household(id: flat.id, viewer: ana) }
            #expect(gone == ServiceError.householdNotFound)
        }
    }

    @Test func deletingLeavesNoRowOfTheHouseholdInAnyTable() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let (flat, anaMember, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana, clientMutationID: "create-1")
            let (other, _, _) = try await h.service.createHousehold(.init(name: "Other"), viewer: ana)
            let benMember = try await h.join(ben, flat.id, invitedBy: ana)
            // Chores, their assignees, steps, tags and rules, the creation policy, a saved preset; the
            // chore's instance, plan and completion, the household's first completed chore; the token
            // economy and the leaderboards' scores over them (their reactions registered).
            let instances = ChoreInstanceService(configuration: InstancesConfiguration(), chores: h.chores, jobs: JobQueue(pool: h.pool, clock: h.clock))
            let tokens = TokenService(configuration: TokensConfiguration(), instances: instances)
            _ = LeaderboardService(tokens: tokens)
            _ = try await h.chores.updateChoreCreationPolicy(householdID: flat.id, creators: PermissionRule(roles: [.member]), viewer: ana)
            let tag = try await h.chores.createTag(householdID: flat.id, name: "Kitchen", viewer: ana).tag
            let chore = try await h.chores.createChore(
                .init(householdID: flat.id, .init(
                    title: "Dishes", assignmentMode: .individual, assigneeIDs: [anaMember.id], schedule: .once(h.clock.now),
                    steps: [.init(title: "Wash")], tagIDs: [tag.id], completers: PermissionRule(kinds: [.child]))),
                viewer: ana).record
            _ = try await h.chores.saveChorePreset(choreID: chore.id, viewer: ana)
            let instance = try #require(try await instances.myChores(viewer: ana).edges.first?.node.instance)
            #expect(try await instances.completeChore(.init(instanceID: instance.id), viewer: ana).outcome == .completed)
            try await h.addChild(to: flat.id, by: ana, age: 7)
            try await h.invite("cy@example.com", to: flat.id, by: ana)
            try await h.invite("cy@example.com", to: other.id, by: ana)
            _ = try await h.service.updateHousehold(id: flat.id, .init(emoji: "🏠"), viewer: ana, clientMutationID: "edit-1")
            _ = try await h.service.removeMember(id: benMember, incompleteTasks: .redistribute, viewer: ana, clientMutationID: "remove-1")
            try await h.pool.write { database in
                try database.execute(
                    """
                    INSERT INTO onboarding_steps (household_id, step, state, visit_count, updated_at) VALUES (?, 'members', 'skipped', 1, ?)
                    ON CONFLICT DO NOTHING
                    """,
                    [flat.id, h.clock.now])
                try database.execute(
                    "INSERT INTO onboarding_completions (household_id, completed_at) VALUES (?, ?) ON CONFLICT DO NOTHING", [flat.id, h.clock.now])
                // A notice Ana got in the household (a chore assigned to her), as the notifier records it.
                try database.execute(
                    """
                    INSERT INTO notifications (id, user_id, household_id, kind, title, body, tag, dedupe_key, created_at)
                    VALUES (?, ?, ?, 'assigned', 'Dishes', 'Dishes is yours', 'assigned-dishes', 'assigned:dishes', ?)
                    """,
                    [GlobalID.make(.notification, now: h.clock.now).rawValue, ana.userID, flat.id, h.clock.now])
            }
            // The token economy: a reward with a member's price, asked for (a hold in the ledger and a balance).
            let reward = try await tokens.createReward(
                householdID: flat.id, RewardDraft(name: "Hug", tokenCost: 0, memberPrices: [anaMember.id: 0]), viewer: ana).reward
            _ = try await tokens.redeemReward(rewardID: reward.id, viewer: ana)
            // Vacation mode: Ana away, her instances paused.
            let vacations = VacationService(instances: instances, jobs: JobQueue(pool: h.pool, clock: h.clock))
            _ = try await vacations.startVacation(householdID: flat.id, memberIDs: [anaMember.id], VacationRequest(handling: .pause), viewer: ana)
            let tables = try await h.householdOwnedTables()
            // The discovery finds the tables of migration 0005 (and any added later).
            #expect(Set(["members", "invitations", "parental_consents", "member_departures", "onboarding_steps", "onboarding_completions",
                         "active_households"]).isSubset(of: Set(tables)))
            for table in tables {
                #expect(try await h.rowCount(of: table, householdID: flat.id) > 0, "the test should give \(table) a row")
            }
            _ = try await h.service.deleteHousehold(id: flat.id, confirmName: "Flat", viewer: ana, clientMutationID: "delete-1")
            for table in tables {
                #expect(try await h.rowCount(of: table, householdID: flat.id) == 0, "\(table) keeps rows of the deleted household")
            }
            #expect(try await h.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM households WHERE id = ?", [flat.id]) } == 0)
            // The other household keeps its rows.
            #expect(try await h.rowCount(of: "invitations", householdID: other.id) == 1)
            #expect(try await h.pool.read { try $0.foreignKeyViolationCount() } == 0)
        }
    }

    // MARK: - The active household (FR-10, FR-11, FR-17)

    @Test func switchingReplacesTheActiveHouseholdAndReturnsThePreviousOne() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let (home, _, _) = try await h.service.createHousehold(.init(name: "Home"), viewer: ana)
            let (cabin, _, _) = try await h.service.createHousehold(.init(name: "Cabin"), viewer: ana)
            #expect(try await h.service.activeHouseholdID(viewer: ana) == home.id)
            _ = try await h.service.household(id: cabin.id, viewer: ana)
            #expect(try await h.service.activeHouseholdID(viewer: ana) == home.id, "viewing does not switch (FR-10)")
            let subscription = h.bus.subscribe(to: [.user(ana.userID)], bufferSize: 8)
            let switched = try await h.service.setActiveHousehold(id: cabin.id, viewer: ana)
            #expect(switched.household.record.id == cabin.id)
            #expect(switched.previousHousehold?.record.id == home.id)
            #expect(try await h.service.activeHouseholdID(viewer: ana) == cabin.id)
            let listed = try await h.service.households(viewer: ana)
            #expect(listed.map(\.record.id) == [cabin.id, home.id], "the active one first")
            #expect(listed.map(\.isActive) == [true, false])
            try await h.expectOneActiveHouseholdPerMember()
            let event = try #require(await firstEvent(of: subscription))
            #expect(event.kind == .activeHouseholdChanged)
            #expect(try event.payload.decode(ActiveHouseholdChange.self)
                == ActiveHouseholdChange(userID: ana.userID, householdID: cabin.id, previousHouseholdID: home.id))
            let again = try await h.service.setActiveHousehold(id: cabin.id, viewer: ana)
            #expect(again.previousHousehold?.record.id == cabin.id)
            #expect(try await h.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM change_log WHERE kind = ?", ["user.active_household_changed"]) } == 1)
        }
    }

    /// The order comes from `households.name_key`, which the service writes with every name
    /// (no dialect's case-insensitive collation): capitals of any script fold, as in "Étoile"
    /// (SQLite's NOCASE folded only ASCII, and put it before "école"). Keys compare by code
    /// point, so names starting with a letter beyond ASCII come after "z".
    @Test func theSwitcherListsTheActiveHouseholdFirstThenTheOthersByNameIgnoringCase() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            var ids: [String: String] = [:]
            for name in ["home", "beta", "Alpha", "Gamma", "école", "Étoile"] {
                ids[name] = try await h.service.createHousehold(.init(name: name), viewer: ana).household.id
            }
            func listed() async throws -> [String] { try await h.service.households(viewer: ana).map(\.record.name) }
            #expect(try await listed() == ["home", "Alpha", "beta", "Gamma", "école", "Étoile"])
            _ = try await h.service.updateHousehold(id: try #require(ids["Alpha"]), .init(name: "Delta"), viewer: ana)
            #expect(try await listed() == ["home", "beta", "Delta", "Gamma", "école", "Étoile"], "a rename moves it")
        }
    }

    @Test func theSwitcherOrdersHouseholdsOfTheSameNameByID() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            _ = try await h.service.createHousehold(.init(name: "Home"), viewer: ana)
            var twins: [String] = []
            for name in ["Twin", "twin", "TWIN"] {
                twins.append(try await h.service.createHousehold(.init(name: name), viewer: ana).household.id)
            }
            let listed = try await h.service.households(viewer: ana).map(\.record.id)
            #expect(Array(listed.dropFirst()) == twins.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        }
    }

    @Test func nobodyCanActivateAHouseholdTheyAreNotIn() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let eve = try await h.confirmedViewer("eve")
            let (flat, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let error = await #expect(throws: ServiceError.self) { try await h.service.setActiveHousehold(id: flat.id, viewer: eve) }
            #expect(error == ServiceError.householdNotFound)
            #expect(try await h.service.activeHouseholdID(viewer: eve) == nil)
            #expect(try await h.service.activeHousehold(viewer: eve) == nil)
        }
    }

    @Test func everyUserWithAHouseholdHasExactlyOneActiveThroughSwitchesDeparturesAndDeletions() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            try await h.expectOneActiveHouseholdPerMember()
            let (a, _, _) = try await h.service.createHousehold(.init(name: "A"), viewer: ana)
            try await h.expectOneActiveHouseholdPerMember()
            h.clock.advance(seconds: 1)
            let (b, _, _) = try await h.service.createHousehold(.init(name: "B"), viewer: ana)
            h.clock.advance(seconds: 1)
            let (c, _, _) = try await h.service.createHousehold(.init(name: "C"), viewer: ben)
            h.clock.advance(seconds: 1)
            try await h.join(ben, a.id, invitedBy: ana)
            h.clock.advance(seconds: 1)
            try await h.join(ben, b.id, invitedBy: ana)
            try await h.expectOneActiveHouseholdPerMember()
            #expect(try await h.service.activeHouseholdID(viewer: ben) == c.id, "joining does not switch")
            for id in [a.id, b.id, c.id, a.id] {
                _ = try await h.service.setActiveHousehold(id: id, viewer: ben)
                try await h.expectOneActiveHouseholdPerMember()
            }
            let left = try await h.service.leaveHousehold(id: a.id, incompleteTasks: .unassign, viewer: ben)
            #expect(left.activeHousehold?.record.id == b.id, "the most recently joined remaining household")
            try await h.expectOneActiveHouseholdPerMember()
            _ = try await h.service.deleteHousehold(id: b.id, confirmName: "B", viewer: ana)
            try await h.expectOneActiveHouseholdPerMember()
            #expect(try await h.service.activeHouseholdID(viewer: ben) == c.id)
            #expect(try await h.service.activeHouseholdID(viewer: ana) == a.id)
            _ = try await h.service.deleteHousehold(id: c.id, confirmName: "C", viewer: ben)
            try await h.expectOneActiveHouseholdPerMember()
            #expect(try await h.service.activeHouseholdID(viewer: ben) == nil)
            #expect(try await h.service.activeHousehold(viewer: ben) == nil)
        }
    }

    @Test func theDatabaseRefusesASecondActiveHouseholdAndOneOfANonMember() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let eve = try await h.confirmedViewer("eve")
            let (home, _, _) = try await h.service.createHousehold(.init(name: "Home"), viewer: ana)
            let (cabin, _, _) = try await h.service.createHousehold(.init(name: "Cabin"), viewer: ana)
            let now = h.clock.now
            #expect(throws: StoreError.self) {
                try h.pool.write { database in
                    try database.execute(
                        "INSERT INTO active_households (user_id, household_id, activated_at) VALUES (?, ?, ?)", [ana.userID, cabin.id, now])
                }
            }
            #expect(throws: StoreError.self) {
                try h.pool.write { database in
                    try database.execute(
                        "INSERT INTO active_households (user_id, household_id, activated_at) VALUES (?, ?, ?)", [eve.userID, home.id, now])
                }
            }
            #expect(try await h.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM active_households") } == 1)
            try await h.expectOneActiveHouseholdPerMember()
        }
    }

    /// The service's rule (``ActiveHousehold``), no longer a trigger's: the invitee becomes an
    /// active member, and their first household their active one, only by accepting.
    @Test func anInviteeActivatesTheHouseholdOnlyByAcceptingAndItIsTheirFirst() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let eve = try await h.confirmedViewer("eve")
            let (home, _, _) = try await h.service.createHousehold(.init(name: "Home"), viewer: ana)
            let token = try await h.service.inviteMember(
                .init(householdID: home.id, email: "eve@example.com"), viewer: ana, clientAddress: "192.0.2.1").token
            let refused = await #expect(throws: ServiceError.self) { try await h.service.setActiveHousehold(id: home.id, viewer: eve) }
            #expect(refused == ServiceError.householdNotFound)
            #expect(try await h.service.activeHouseholdID(viewer: eve) == nil)
            _ = try await h.service.acceptInvitation(.token(token), viewer: eve)
            #expect(try await h.service.activeHouseholdID(viewer: eve) == home.id)
            #expect(try await h.service.activeHouseholdID(viewer: ana) == home.id)
            try await h.expectOneActiveHouseholdPerMember()
        }
    }

    /// Removal by an admin, like leaving, moves the removed user's active household to their most
    /// recently joined remaining one, and only when it was the one they lost.
    @Test func aRemovedMemberGetsTheirMostRecentlyJoinedRemainingHouseholdAsActive() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let (a, _, _) = try await h.service.createHousehold(.init(name: "A"), viewer: ana)
            let (b, _, _) = try await h.service.createHousehold(.init(name: "B"), viewer: ana)
            let (own, _, _) = try await h.service.createHousehold(.init(name: "Own"), viewer: ben)
            h.clock.advance(seconds: 1)
            let inA = try await h.join(ben, a.id, invitedBy: ana)
            h.clock.advance(seconds: 1)
            let inB = try await h.join(ben, b.id, invitedBy: ana)
            _ = try await h.service.setActiveHousehold(id: a.id, viewer: ben)
            _ = try await h.service.removeMember(id: inB, incompleteTasks: .unassign, viewer: ana)
            #expect(try await h.service.activeHouseholdID(viewer: ben) == a.id, "not the active one: nothing moves")
            _ = try await h.service.removeMember(id: inA, incompleteTasks: .unassign, viewer: ana)
            #expect(try await h.service.activeHouseholdID(viewer: ben) == own.id)
            #expect(try await h.service.activeHouseholdID(viewer: ana) == a.id, "the admin's stays")
            try await h.expectOneActiveHouseholdPerMember()
        }
    }

    // MARK: - Roles (FR-16)

    @Test func anAdminPromotesAndDemotesButNeverTheLastAdmin() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let (flat, anaMember, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let benMember = try await h.join(ben, flat.id, invitedBy: ana)
            let lastAdmin = await #expect(throws: ServiceError.self) {
                try await h.service.changeMemberRole(memberID: anaMember.id, to: .member, viewer: ana)
            }
            #expect(lastAdmin?.code == .conflict && lastAdmin?.reason == .lastAdmin)
            let subscription = h.bus.subscribe(to: [.household(flat.id)], bufferSize: 8)
            let (promoted, _) = try await h.service.changeMemberRole(memberID: benMember, to: .admin, viewer: ana)
            #expect(promoted.role == .admin)
            let event = try #require(await firstEvent(of: subscription))
            #expect(event.kind == .memberRoleChanged)
            #expect(try event.payload.decode(HouseholdChange.self) == HouseholdChange(householdID: flat.id, memberID: benMember, userID: ben.userID))
            let (demoted, access) = try await h.service.changeMemberRole(memberID: anaMember.id, to: .member, viewer: ana)
            #expect(demoted.role == .member && access.role == .member)
            let nowForbidden = await #expect(throws: ServiceError.self) {
                try await h.service.changeMemberRole(memberID: benMember, to: .member, viewer: ana)
            }
            #expect(nowForbidden?.code == .forbidden)
            let benLast = await #expect(throws: ServiceError.self) {
                try await h.service.changeMemberRole(memberID: benMember, to: .member, viewer: ben)
            }
            #expect(benLast?.reason == .lastAdmin)
        }
    }

    @Test func childrenCannotBeAdminsAndInvitedMembersGetTheirRoleOnJoining() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let (flat, anaMember, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let child = try await h.addChild(to: flat.id, by: ana, age: 9)
            let error = await #expect(throws: ServiceError.self) {
                try await h.service.changeMemberRole(memberID: child, to: .admin, viewer: ana)
            }
            #expect(error?.code == .badUserInput && error?.problems.first?.field == "input.role")
            let invited = try await h.invite("cy@example.com", to: flat.id, by: ana)
            let (member, _) = try await h.service.changeMemberRole(memberID: invited, to: .admin, viewer: ana)
            #expect(member.role == .admin && member.status == .invited)
            // An invited admin is not an active one: Ana stays the last admin.
            let lastAdmin = await #expect(throws: ServiceError.self) {
                try await h.service.changeMemberRole(memberID: anaMember.id, to: .member, viewer: ana)
            }
            #expect(lastAdmin?.reason == .lastAdmin)
            #expect(try await h.service.changeMemberRole(memberID: invited, to: .member, viewer: ana).member.role == .member)
        }
    }

    @Test func membersOfAnotherHouseholdAreNotFound() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let eve = try await h.confirmedViewer("eve")
            _ = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let (other, eveMember, _) = try await h.service.createHousehold(.init(name: "Other"), viewer: eve)
            let child = try await h.addChild(to: other.id, by: eve, age: 14)
            for id in [eveMember.id, child, "no-such-member"] {
                let role = await #expect(throws: ServiceError.self) { try await h.service.changeMemberRole(memberID: id, to: .admin, viewer: ana) }
                #expect(role == ServiceError.memberNotFound)
                let removal = await #expect(throws: ServiceError.self) {
                    try await h.service.removeMember(id: id, incompleteTasks: .unassign, viewer: ana)
                }
                #expect(removal == ServiceError.memberNotFound)
            }
        }
    }

    // MARK: - Removing (FR-14)

    @Test func removingAMemberRecordsTheTaskChoiceAndMovesTheirActiveHousehold() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let (home, _, _) = try await h.service.createHousehold(.init(name: "Home"), viewer: ben)
            let (flat, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let benMember = try await h.join(ben, flat.id, invitedBy: ana)
            _ = try await h.service.setActiveHousehold(id: flat.id, viewer: ben)
            let subscription = h.bus.subscribe(to: [.household(flat.id)], bufferSize: 8)
            let removal = try await h.service.removeMember(id: benMember, incompleteTasks: .redistribute, viewer: ana)
            #expect(removal.removedMemberID == benMember && removal.household.record.id == flat.id)
            let event = try #require(await firstEvent(of: subscription))
            #expect(event.kind == .memberRemoved)
            #expect(try event.payload.decode(HouseholdChange.self)
                == HouseholdChange(householdID: flat.id, memberID: benMember, userID: ben.userID, incompleteTasks: .redistribute))
            #expect(try await h.departures(of: flat.id) == ["\(benMember) \(ben.userID) removed redistribute \(ana.userID)"])
            #expect(try await h.service.activeHouseholdID(viewer: ben) == home.id)
            try await h.expectOneActiveHouseholdPerMember()
            let gone = await #expect(throws: ServiceError.self) { try await h.service.household(id: flat.id, viewer: ben) }
            #expect(gone == ServiceError.householdNotFound)
        }
    }

    @Test func removingYourselfOrAnInvitationIsRefusedWithTheOperationToUse() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let (flat, anaMember, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let benMember = try await h.join(ben, flat.id, invitedBy: ana)
            let invited = try await h.invite("cy@example.com", to: flat.id, by: ana)
            let yourself = await #expect(throws: ServiceError.self) {
                try await h.service.removeMember(id: anaMember.id, incompleteTasks: .unassign, viewer: ana)
            }
            #expect(yourself?.code == .badUserInput && yourself?.message.contains("leaveHousehold") == true)
            let invitation = await #expect(throws: ServiceError.self) {
                try await h.service.removeMember(id: invited, incompleteTasks: .unassign, viewer: ana)
            }
            #expect(invitation?.code == .badUserInput && invitation?.message.contains("revokeInvitation") == true)
            let forbidden = await #expect(throws: ServiceError.self) {
                try await h.service.removeMember(id: anaMember.id, incompleteTasks: .unassign, viewer: ben)
            }
            #expect(forbidden?.code == .forbidden)
            #expect(try await h.departures(of: flat.id).isEmpty)
            #expect(try await h.service.access(viewer: ben, householdID: flat.id).member.id == benMember)
        }
    }

    @Test func anAdminRemovesAChildWithoutAnAccount() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let (flat, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let child = try await h.addChild(to: flat.id, by: ana, age: 6)
            _ = try await h.service.removeMember(id: child, incompleteTasks: .unassign, viewer: ana)
            #expect(try await h.departures(of: flat.id) == ["\(child) - removed unassign \(ana.userID)"])
        }
    }

    // MARK: - Leaving (FR-15)

    @Test func aMemberLeavesAndTheirChoiceIsRecorded() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let (flat, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let benMember = try await h.join(ben, flat.id, invitedBy: ana)
            #expect(try await h.service.activeHouseholdID(viewer: ben) == flat.id)
            let subscription = h.bus.subscribe(to: [.household(flat.id)], bufferSize: 8)
            let departure = try await h.service.leaveHousehold(id: flat.id, incompleteTasks: .unassign, viewer: ben)
            #expect(departure.householdID == flat.id && departure.activeHousehold == nil)
            let event = try #require(await firstEvent(of: subscription))
            #expect(event.kind == .memberLeft)
            #expect(try event.payload.decode(HouseholdChange.self)
                == HouseholdChange(householdID: flat.id, memberID: benMember, userID: ben.userID, incompleteTasks: .unassign))
            #expect(try await h.departures(of: flat.id) == ["\(benMember) \(ben.userID) left unassign \(ben.userID)"])
            #expect(try await h.service.activeHouseholdID(viewer: ben) == nil)
            try await h.expectOneActiveHouseholdPerMember()
        }
    }

    @Test func theLastAdminMustPromoteSomeoneBeforeLeaving() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let (flat, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let benMember = try await h.join(ben, flat.id, invitedBy: ana)
            let error = await #expect(throws: ServiceError.self) {
                try await h.service.leaveHousehold(id: flat.id, incompleteTasks: .unassign, viewer: ana)
            }
            #expect(error?.code == .conflict && error?.reason == .lastAdmin && error?.message.contains("make another adult admin") == true)
            _ = try await h.service.changeMemberRole(memberID: benMember, to: .admin, viewer: ana)
            let departure = try await h.service.leaveHousehold(id: flat.id, incompleteTasks: .redistribute, viewer: ana)
            #expect(departure.householdID == flat.id)
            #expect(try await h.service.household(id: flat.id, viewer: ben).access.isAdmin)
        }
    }

    @Test func theOnlyAdultOfAHouseholdWithChildrenIsToldToInviteOrDelete() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let (flat, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            try await h.addChild(to: flat.id, by: ana, age: 8)
            let error = await #expect(throws: ServiceError.self) {
                try await h.service.leaveHousehold(id: flat.id, incompleteTasks: .unassign, viewer: ana)
            }
            #expect(error?.reason == .lastAdmin && error?.message.contains("delete the household") == true)
        }
    }

    @Test func theOnlyMemberDeletesTheHouseholdInsteadOfLeaving() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let (flat, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            try await h.invite("cy@example.com", to: flat.id, by: ana)
            let error = await #expect(throws: ServiceError.self) {
                try await h.service.leaveHousehold(id: flat.id, incompleteTasks: .unassign, viewer: ana)
            }
            #expect(error?.code == .conflict && error?.reason == nil && error?.message.contains("delete the household") == true)
            #expect(try await h.service.activeHouseholdID(viewer: ana) == flat.id)
        }
    }

    // MARK: - Replays

    @Test func aReplayedMutationReturnsTheFirstResultAndChangesNothing() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let (flat, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let benMember = try await h.join(ben, flat.id, invitedBy: ana)
            let first = try await h.service.removeMember(id: benMember, incompleteTasks: .unassign, viewer: ana, clientMutationID: "q-1")
            let replay = try await h.service.removeMember(id: benMember, incompleteTasks: .redistribute, viewer: ana, clientMutationID: "q-1")
            #expect(replay.removedMemberID == first.removedMemberID && replay.household.record == first.household.record)
            #expect(try await h.departures(of: flat.id).count == 1)
            #expect(try await h.kinds(of: flat.id).filter { $0 == "member.removed" }.count == 1)

            h.clock.advance(seconds: 5)
            let renamed = try await h.service.updateHousehold(id: flat.id, .init(name: "Loft"), viewer: ana, clientMutationID: "q-2")
            h.clock.advance(seconds: 5)
            let again = try await h.service.updateHousehold(id: flat.id, .init(name: "Attic"), viewer: ana, clientMutationID: "q-2")
            #expect(again.record == renamed.record && again.record.name == "Loft")

            let reused = await #expect(throws: ServiceError.self) {
                try await h.service.deleteHousehold(id: flat.id, confirmName: "Loft", viewer: ana, clientMutationID: "q-2")
            }
            #expect(reused?.code == .conflict && reused?.reason == .clientMutationIdReused)
            #expect(try await h.service.household(id: flat.id, viewer: ana).record.name == "Loft")
        }
    }

    @Test func aClientMutationIdIsBoundedAtItsEdgeAndAnOverlongOneChangesNothing() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let longest = String(repeating: "é", count: 100)  // 200 bytes
            let first = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana, clientMutationID: longest)
            let replay = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana, clientMutationID: longest)
            #expect(replay.household == first.household)
            let overlong = await #expect(throws: ServiceError.self) {
                try await h.service.createHousehold(.init(name: "Cabin"), viewer: ana, clientMutationID: longest + "x")
            }
            #expect(overlong?.code == .badUserInput)
            #expect(overlong?.problems.map(\.field) == ["input.clientMutationId"] && overlong?.problems.first?.reason == .tooLong)
            #expect(try await h.service.households(viewer: ana).map(\.record.name) == ["Flat"])
        }
    }

    @Test func aReplayedDeletionAndSwitchAnswerAsTheFirstTime() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let (home, _, _) = try await h.service.createHousehold(.init(name: "Home"), viewer: ana)
            let (cabin, _, _) = try await h.service.createHousehold(.init(name: "Cabin"), viewer: ana)
            let switched = try await h.service.setActiveHousehold(id: cabin.id, viewer: ana, clientMutationID: "s-1")
            _ = try await h.service.setActiveHousehold(id: home.id, viewer: ana)
            let replayed = try await h.service.setActiveHousehold(id: cabin.id, viewer: ana, clientMutationID: "s-1")
            #expect(replayed.household.record.id == switched.household.record.id)
            #expect(try await h.service.activeHouseholdID(viewer: ana) == home.id, "the replay does not switch again")
            let deleted = try await h.service.deleteHousehold(id: cabin.id, confirmName: "Cabin", viewer: ana, clientMutationID: "d-1")
            let replay = try await h.service.deleteHousehold(id: cabin.id, confirmName: "Cabin", viewer: ana, clientMutationID: "d-1")
            #expect(replay.householdID == deleted.householdID && replay.activeHousehold?.record.id == home.id)
            #expect(try await h.kinds(of: cabin.id).filter { $0 == "household.deleted" }.count == 1)
        }
    }

    // MARK: - The members list

    @Test func membersAreListedAdminsFirstThenByJoiningWithWorkingCursorsBothWays() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let (flat, anaMember, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            var joined: [String] = []
            for name in ["ben", "cyd", "dee", "eli"] {
                h.clock.advance(seconds: 1)
                joined.append(try await h.join(try await h.confirmedViewer(name), flat.id, invitedBy: ana, role: name == "dee" ? .admin : .member))
            }
            let access = try await h.service.access(viewer: ana, householdID: flat.id)
            let expected = [anaMember.id, joined[2], joined[0], joined[1], joined[3]]
            let all = try await h.service.members(access)
            #expect(all.edges.map(\.member.id) == expected)
            #expect(all.totalCount == 5 && !all.hasNextPage && !all.hasPreviousPage)

            let page1 = try await h.service.members(access, first: 2)
            #expect(page1.edges.map(\.member.id) == Array(expected[0..<2]))
            #expect(page1.hasNextPage && !page1.hasPreviousPage && page1.totalCount == 5)
            let page2 = try await h.service.members(access, first: 2, after: page1.endCursor)
            #expect(page2.edges.map(\.member.id) == Array(expected[2..<4]))
            #expect(page2.hasNextPage && page2.hasPreviousPage)
            let page3 = try await h.service.members(access, first: 2, after: page2.endCursor)
            #expect(page3.edges.map(\.member.id) == [expected[4]])
            #expect(!page3.hasNextPage && page3.hasPreviousPage)

            let last2 = try await h.service.members(access, last: 2)
            #expect(last2.edges.map(\.member.id) == Array(expected[3..<5]))
            #expect(last2.hasPreviousPage && !last2.hasNextPage)
            let before = try await h.service.members(access, last: 2, before: last2.startCursor)
            #expect(before.edges.map(\.member.id) == Array(expected[1..<3]))
            #expect(before.hasPreviousPage && before.hasNextPage)
            let between = try await h.service.members(access, after: page1.startCursor, before: page3.startCursor)
            #expect(between.edges.map(\.member.id) == Array(expected[1..<4]))
        }
    }

    @Test func pageSizesAndCursorsAreChecked() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let (flat, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let access = try await h.service.access(viewer: ana, householdID: flat.id)
            let error = await #expect(throws: ServiceError.self) {
                try await h.service.members(access, first: 101, after: "garbage", last: -1, before: "bm90IG91cnM")
            }
            #expect(error?.code == .badUserInput)
            #expect(error?.problems.map(\.field) == ["first", "last", "last", "after", "before"])
            #expect(error?.problems.map(\.reason) == [.outOfRange, .outOfRange, .notAllowed, .invalidFormat, .invalidFormat])
            #expect(try await h.service.members(access, first: 100).edges.count == 1)
            #expect(try await h.service.members(access, first: 0).edges.isEmpty)
        }
    }

    @Test func aCursorOfAnotherHouseholdOnlyPositionsAndRevealsNothing() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let eve = try await h.confirmedViewer("eve")
            let (flat, anaMember, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let (other, _, _) = try await h.service.createHousehold(.init(name: "Other"), viewer: eve)
            let eveAccess = try await h.service.access(viewer: eve, householdID: other.id)
            let cursor = try #require(try await h.service.members(eveAccess).startCursor)
            let access = try await h.service.access(viewer: ana, householdID: flat.id)
            let page = try await h.service.members(access, first: 10, after: cursor)
            #expect(page.edges.allSatisfy { $0.member.householdID == flat.id })
            #expect(page.totalCount == 1)
            #expect(try await h.service.members(access).edges.map(\.member.id) == [anaMember.id])
        }
    }

    // MARK: - The user's time zone

    @Test func aUsersTimeZoneIsSetClearedAndUsedForNewHouseholds() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let zoned = try await h.accounts.service.updateProfile(viewer: ana, ProfileChange(timeZone: "Europe/Paris"))
            #expect(zoned.timeZone == "Europe/Paris")
            #expect(try await h.service.createHousehold(.init(name: "Flat"), viewer: ana).household.timeZone == "Europe/Paris")
            #expect(try await h.accounts.service.updateProfile(viewer: ana, ProfileChange(timeZone: .some(nil))).timeZone == nil)
            #expect(try await h.service.createHousehold(.init(name: "Cabin"), viewer: ana).household.timeZone == "UTC")
        }
    }
}

/// The first event `subscription` delivers; `nil` when it ends or overflows first.
private func firstEvent(of subscription: EventSubscription) async -> Event? {
    var iterator = subscription.makeAsyncIterator()
    guard case .event(let event) = await iterator.next() else { return nil }
    return event
}
