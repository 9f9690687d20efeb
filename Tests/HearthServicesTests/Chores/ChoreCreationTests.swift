import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// FR-27 – FR-32, FR-37, FR-38: creating chores of every assignment mode and schedule, with steps,
/// tags and rewards, and what is refused.
struct ChoreCreationTests {
    @Test func anAdminCreatesAChoreWithEveryPartAndReadsItBack() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let tag = try await h.chores.createTag(householdID: f.householdID, name: "Kitchen", color: "#3F8CFF", viewer: f.admin).tag
            let chore = try await h.chore("Dishes", in: f.householdID, by: f.admin) {
                $0.description = "  Plates first.\nThen pots.  "
                $0.assignmentMode = .individual
                $0.assigneeIDs = [f.memberID]
                $0.steps = [.init(title: " Wash "), .init(title: "Dry", assigneeID: f.childMemberID, completers: PermissionRule(kinds: [.child]))]
                $0.tagIDs = [tag.id]
                $0.tokens = 5
                $0.completers = PermissionRule(roles: [.member], memberIDs: [f.childMemberID])
            }
            #expect(GlobalID(rawValue: chore.id)?.kind == .chore)
            #expect(chore.description == "Plates first.\nThen pots." && chore.tokens == 5 && !chore.requiresApproval)
            #expect(chore.assignmentMode == .individual && chore.householdID == f.householdID && chore.ownerID == nil)
            let access = try await h.chores.chore(id: chore.id, viewer: f.member).access
            #expect(try await h.chores.assignees(of: [chore], access: access)[chore.id]?.map(\.member.id) == [f.memberID])
            let steps = try #require(try await h.chores.steps(of: [chore.id], access: access)[chore.id])
            #expect(steps.map(\.title) == ["Wash", "Dry"] && steps.map(\.position) == [0, 1])
            #expect(steps.allSatisfy { GlobalID(rawValue: $0.id)?.kind == .choreStep } && steps[1].assignee?.member.id == f.childMemberID)
            #expect(try await h.chores.tags(of: [chore.id], access: access)[chore.id]?.map(\.name) == ["Kitchen"])
            let rules = try #require(try await h.chores.rules(of: [chore.id], access: access)[chore.id])
            #expect(rules.completers.rule == PermissionRule(roles: [.member], memberIDs: [f.childMemberID]))
            #expect(rules.completers.members.map(\.displayName) == ["Kim"])
            #expect(rules.steps[steps[1].id]?.rule == PermissionRule(kinds: [.child]) && rules.steps[steps[0].id] == nil)
            #expect(rules.editors.rule.isEmpty)
        }
    }

    @Test(arguments: [
        (AssignmentMode.individual, 1), (.group, 2), (.allMembers, 0), (.singleAction, 0), (.singleAction, 1),
    ])
    func eachModeTakesItsNumberOfAssignees(mode: AssignmentMode, count: Int) async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let everyone = [f.memberID, f.childMemberID, f.adminMemberID]
            let chore = try await h.chore("Chore", in: f.householdID, by: f.admin) {
                $0.assignmentMode = mode
                $0.assigneeIDs = Array(everyone.prefix(count))
            }
            let assignees = try await h.chores.assignees(of: [chore], access: try await h.chores.chore(id: chore.id, viewer: f.admin).access)
            let listed = assignees[chore.id]?.map(\.member.id) ?? []
            if mode == .allMembers {
                // Everyone's: every active member, admins first.
                #expect(Set(listed) == Set(everyone) && listed.first == f.adminMemberID)
            } else {
                #expect(listed == Array(everyone.prefix(count)))
            }
        }
    }

    @Test(arguments: [
        (AssignmentMode.individual, 0, FieldProblem.Reason.required), (.individual, 2, .required), (.group, 0, .required),
        (.allMembers, 1, .notAllowed), (.singleAction, 2, .notAllowed),
    ])
    func aModeRefusesAnyOtherNumberOfAssignees(mode: AssignmentMode, count: Int, reason: FieldProblem.Reason) async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let refused = await h.refusal {
                try await h.chore("Chore", in: f.householdID, by: f.admin) {
                    $0.assignmentMode = mode
                    $0.assigneeIDs = Array([f.memberID, f.childMemberID].prefix(count))
                }
            }
            #expect(refused?.code == .badUserInput && refused?.problems.first?.field == "input.assigneeIds")
            #expect(refused?.problems.first?.reason == reason)
            #expect(try h.sqlText("SELECT count(*) FROM chores") == "0")
        }
    }

    @Test func aMemberOfAnotherHouseholdIsNotFoundExactlyLikeAnUnknownID() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            var refusals: [ServiceError?] = []
            for id in [f.outsiderMemberID, "mem_01900000-0000-7000-8000-000000000000", "garbage", f.householdID] {
                refusals.append(await h.refusal {
                    try await h.chore("Chore", in: f.householdID, by: f.admin) {
                        $0.assignmentMode = .individual
                        $0.assigneeIDs = [id]
                    }
                })
            }
            #expect(refusals.allSatisfy { $0?.code == .notFound && $0 == refusals[0] }, "\(refusals)")
            #expect(refusals[0]?.problems.first?.field == "input.assigneeIds[0]")
            let tagRefusal = await h.refusal {
                let foreign = try await h.chores.createTag(householdID: f.outsiderHouseholdID, name: "Eve's", viewer: f.outsider).tag
                return try await h.chore("Chore", in: f.householdID, by: f.admin) { $0.tagIDs = [foreign.id] }
            }
            #expect(tagRefusal?.code == .notFound && tagRefusal?.problems.first?.field == "input.tagIds[0]")
        }
    }

    @Test func invitedAndDepartedMembersCannotBeAssigned() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let invited = try await h.service.inviteMember(
                .init(householdID: f.householdID, email: "dan@example.com"), viewer: f.admin, clientAddress: "192.0.2.1").invitation.member.id
            _ = try await h.service.removeMember(id: f.childMemberID, incompleteTasks: .unassign, viewer: f.admin)
            let refused = await h.refusal {
                try await h.chore("Chore", in: f.householdID, by: f.admin) {
                    $0.assignmentMode = .group
                    $0.assigneeIDs = [invited, f.childMemberID]
                }
            }
            #expect(refused?.code == .badUserInput)
            #expect(refused?.problems.map(\.field) == ["input.assigneeIds[0]", "input.assigneeIds[1]"])
            #expect(refused?.problems.map(\.reason) == [.notAllowed, .notAllowed])
        }
    }

    @Test func approvalIsOnByDefaultForChoresOfChildren() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let adults = try await h.chore("Adults", in: f.householdID, by: f.admin) {
                $0.assignmentMode = .individual
                $0.assigneeIDs = [f.memberID]
            }
            let child = try await h.chore("Child", in: f.householdID, by: f.admin) {
                $0.assignmentMode = .group
                $0.assigneeIDs = [f.memberID, f.childMemberID]
            }
            let everyone = try await h.chore("Everyone", in: f.householdID, by: f.admin) { $0.assignmentMode = .allMembers }
            let overridden = try await h.chore("Trusted", in: f.householdID, by: f.admin) {
                $0.assignmentMode = .individual
                $0.assigneeIDs = [f.childMemberID]
                $0.requiresApproval = false
            }
            #expect(!adults.requiresApproval && child.requiresApproval && everyone.requiresApproval && !overridden.requiresApproval)
        }
    }

    @Test func schedulesOfEveryKindAreStoredAndBadOnesAreRefusedNamingThePart() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let due = h.clock.now.addingTimeInterval(3600)
            let once = try await h.chore("Once", in: f.householdID, by: f.admin) { $0.schedule = .once(due) }
            #expect(once.schedule == .once(dueAt: due))
            let rule = "DTSTART;TZID=Europe/Berlin:20260329T023000\nRRULE:FREQ=WEEKLY;BYDAY=SA"
            let weekly = try await h.chore("Weekly", in: f.householdID, by: f.admin) { $0.schedule = .recurrence(rule) }
            #expect(weekly.schedule == .recurrence(rule))
            let interval = try await h.chore("Interval", in: f.householdID, by: f.admin) {
                $0.schedule = .afterCompletion(every: 3, unit: .days, firstDueAt: nil)
            }
            #expect(interval.schedule == .afterCompletion(every: 3, unit: .days, firstDueAt: h.clock.now))
            let refused = await h.refusal {
                try await h.chore("Hourly", in: f.householdID, by: f.admin) {
                    $0.schedule = .recurrence("DTSTART:20260301T090000\nRRULE:FREQ=DAILY;BYHOUR=9")
                }
            }
            #expect(refused?.code == .badUserInput && refused?.problems.first?.field == "input.schedule.recurrence")
            #expect(refused?.problems.first?.message.contains("BYHOUR") == true, "\(String(describing: refused))")
            for (every, unit, passes) in [(1, IntervalUnit.days, true), (366, .days, true), (367, .days, false), (0, .weeks, false), (52, .weeks, true), (53, .weeks, false)] {
                let outcome = await h.refusal {
                    try await h.chore("Every \(every) \(unit)", in: f.householdID, by: f.admin) {
                        $0.schedule = .afterCompletion(every: every, unit: unit, firstDueAt: nil)
                    }
                }
                #expect((outcome == nil) == passes, "\(every) \(unit)")
                if !passes { #expect(outcome?.problems.first?.field == "input.schedule.afterCompletion.every") }
            }
        }
    }

    @Test func titlesDescriptionsAndTokensAreCheckedAllAtOnce() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let refused = await h.refusal {
                try await h.chore("  ", in: f.householdID, by: f.admin) {
                    $0.description = String(repeating: "a", count: ChoreRules.maximumDescriptionLength + 1)
                    $0.tokens = -1
                    $0.steps = [.init(title: "Fine"), .init(title: "Two\nlines")]
                }
            }
            #expect(refused?.problems.map(\.field) == ["input.title", "input.description", "input.tokens", "input.steps[1].title"])
            let missing = await h.refusal { try await h.chores.createChore(.init(householdID: f.householdID), viewer: f.admin) }
            #expect(missing?.problems.map(\.field) == ["input.title", "input.schedule"])
            let longest = try await h.chore(String(repeating: "t", count: 80), in: f.householdID, by: f.admin) {
                $0.description = String(repeating: "d", count: ChoreRules.maximumDescriptionLength)
                $0.tokens = ChoreRules.maximumTokens
            }
            #expect(longest.title.count == 80)
        }
    }

    @Test func theStepsLimitHoldsAtItsEdge() async throws {
        try await HouseholdsHarness.with(configureChores: { $0.maximumStepsPerChore = 3 }) { h in
            let f = try await h.choreFamily()
            let three = try await h.chore("Three", in: f.householdID, by: f.admin) { $0.steps = ["a", "b", "c"].map { .init(title: $0) } }
            #expect(try h.sqlText("SELECT count(*) FROM chore_steps WHERE chore_id = '\(three.id)'") == "3")
            let four = await h.refusal {
                try await h.chore("Four", in: f.householdID, by: f.admin) { $0.steps = ["a", "b", "c", "d"].map { .init(title: $0) } }
            }
            #expect(four?.problems.first?.field == "input.steps" && four?.problems.first?.reason == .tooLong)
        }
    }

    @Test func theChoresLimitHoldsAtItsEdgeAndDeletedChoresDoNotCount() async throws {
        try await HouseholdsHarness.with(configureChores: { $0.maximumChoresPerOwner = 2 }) { h in
            let f = try await h.choreFamily()
            try await h.chore("One", in: f.householdID, by: f.admin)
            let second = try await h.chore("Two", in: f.householdID, by: f.admin)
            let third = await h.refusal { try await h.chore("Three", in: f.householdID, by: f.admin) }
            #expect(third?.code == .conflict && third?.reason == .limitReached)
            // Personal chores count per owner, apart from the household's.
            try await h.chore("Mine", in: nil, by: f.admin)
            _ = try await h.chores.deleteChore(id: second.id, viewer: f.admin)
            try await h.chore("Three", in: f.householdID, by: f.admin)
        }
    }

    @Test func aClientMadeIDIsKeptAndCannotBeUsedTwice() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let id = "chr_01900000-0000-7000-8000-0000000000aa"
            #expect(try await h.chore("Offline", in: f.householdID, by: f.admin, id: id).id == id)
            let again = await h.refusal { try await h.chore("Again", in: nil, by: f.member, id: id) }
            #expect(again?.code == .badUserInput && again?.problems.first?.field == "input.id" && again?.problems.first?.reason == .idTaken)
            let malformed = await h.refusal { try await h.chore("Bad", in: nil, by: f.member, id: "01900000-0000-7000-8000-0000000000ab") }
            #expect(malformed?.code == .badUserInput && malformed?.problems.first?.field == "input.id")
        }
    }

    @Test func aReplayedClientMutationIDReturnsTheFirstChoreAndCreatesNoOther() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let request = ChoreService.NewChore(householdID: f.householdID, .init(title: "Once", schedule: .once(h.clock.now)))
            let first = try await h.chores.createChore(request, viewer: f.admin, clientMutationID: "offline-1").record
            let replay = try await h.chores.createChore(request, viewer: f.admin, clientMutationID: "offline-1").record
            #expect(first.id == replay.id)
            #expect(try h.sqlText("SELECT count(*) FROM chores") == "1")
            #expect(try h.sqlText("SELECT count(*) FROM change_log WHERE kind = 'chore.created'") == "1")
        }
    }

    @Test func theHouseholdsFirstChoreCompletesTheChecklistsChoreStep() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            try h.allowAnalytics(for: f.admin)
            let before = try await h.service.onboarding(try await h.service.access(viewer: f.admin, householdID: f.householdID))
            #expect(before[.chore].state == .pending)
            try await h.chore("Personal", in: nil, by: f.admin)
            #expect(try h.sqlText("SELECT count(*) FROM onboarding_steps WHERE step = 'chore'") == "0", "a personal chore is no household's")
            try await h.chore("First", in: f.householdID, by: f.admin)
            try await h.chore("Second", in: f.householdID, by: f.admin)
            let after = try await h.service.onboarding(try await h.service.access(viewer: f.admin, householdID: f.householdID))
            #expect(after[.chore].state == .done && after[.chore].completedAt == h.clock.now)
            #expect(try h.sqlText("SELECT count(*) FROM analytics_events WHERE name = 'onboarding_step_completed' AND properties LIKE '%chore%'") == "1")
        }
    }

    @Test func changesAreRecordedOnTheHouseholdsTopicAndPersonalOnesOnTheOwners() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let chore = try await h.chore("Dishes", in: f.householdID, by: f.admin)
            let personal = try await h.chore("Run", in: nil, by: f.member)
            let events = try await h.service.changeLog.changes(
                after: 0, topics: [.household(f.householdID), .user(f.member.userID)], limit: 100)
            let created = events.filter { $0.kind == .choreCreated }
            #expect(created.map(\.topic) == [.household(f.householdID), .user(f.member.userID)])
            #expect(try created.map { try $0.payload.decode(ChoreChange.self).choreID } == [chore.id, personal.id])
        }
    }
}
