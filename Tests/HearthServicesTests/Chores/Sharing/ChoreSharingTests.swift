import FoundationEssentials
import HearthDomain
import HearthServices
import TestFixtures
import Testing

/// FR-40 – FR-42: sharing personal chores with an account (an invitation it accepts) or with a
/// household, read-only, and revoking, enforced by the chore service's access checks.
struct ChoreSharingTests {
    @Test func FR40_aShareWithAnAccountShowsNothingUntilItsRecipientAcceptsThenEverythingReadOnly() async throws {
        try await InstancesHarness.with { h in
            let f = try await h.households.choreFamily()
            let due = h.clock.now.addingTimeInterval(3600)
            let run = try await h.households.chore("Run 5 km", in: nil, by: f.child) { $0.schedule = .once(due) }
            let diary = try await h.households.chore("Diary", in: nil, by: f.child)
            let tag = try await h.chores.createTag(householdID: nil, name: "Fitness", viewer: f.child).tag
            let share = try await h.chores.shareChores(
                NewChoreShare(selection: .chores([run.id]), recipient: .email("Eve@Example.com")), viewer: f.child)
            #expect(share.status == .pending && share.recipientEmail?.lowercased() == "eve@example.com" && !share.ownerName.isEmpty)
            // Before accepting: pending for her, nothing readable.
            #expect(try await h.chores.shares(.pending, viewer: f.outsider).edges.map(\.node.id) == [share.id])
            #expect(try await h.chores.shares(.received, viewer: f.outsider).edges.isEmpty)
            #expect(try await h.chores.sharedChores(shareID: share.id, viewer: f.outsider).edges.isEmpty)
            #expect(await h.households.refusal { try await h.chores.chore(id: run.id, viewer: f.outsider) } == .choreNotFound)
            // Nobody else may answer it.
            #expect(await h.households.refusal { try await h.chores.acceptShare(id: share.id, viewer: f.member) } == .shareNotFound)

            let accepted = try await h.chores.acceptShare(id: share.id, viewer: f.outsider)
            #expect(accepted.status == .accepted && accepted.recipientUserID == f.outsider.userID)
            #expect(try await h.chores.shares(.received, viewer: f.outsider).edges.map(\.node.id) == [share.id])
            #expect(try await h.chores.sharedChores(shareID: share.id, viewer: f.outsider).edges.map(\.chore.id) == [run.id])
            let (seen, access) = try await h.chores.chore(id: run.id, viewer: f.outsider)
            #expect(seen.title == "Run 5 km" && access.isShared && !access.isManager)
            // Its instance and completion status: who, when.
            let instanceID = h.instanceID(run, at: due)
            _ = try await h.runDueJobs()
            try await h.complete(instanceID, as: f.child)
            let instance = try await h.instances.instance(id: instanceID, viewer: f.outsider)
            #expect(instance.instance.status == .completed && instance.access.isShared)
            #expect(try await h.instances.history(ofChore: run.id, access: access).edges.count == 1)
            #expect(try await h.instances.instances(ofChore: run, access: access).edges.map(\.node.instance.id) == [instanceID])
            // Nothing else of the owner's: other chores, tags (of the shared chore too), the node lookup only finds what is shared.
            #expect(await h.households.refusal { try await h.chores.chore(id: diary.id, viewer: f.outsider) } == .choreNotFound)
            #expect(await h.households.refusal { try await h.chores.tag(id: tag.id, viewer: f.outsider) } == .tagNotFound)
            let found = try await h.chores.nodes(ids: [run.id, diary.id, tag.id, share.id], viewer: f.outsider)
            #expect(Set(found.keys) == [run.id, share.id])
        }
    }

    @Test func FR40_FR41_everyWriteOfARecipientIsForbiddenNamingTheRule() async throws {
        try await InstancesHarness.with { h in
            let f = try await h.households.choreFamily()
            let due = h.clock.now.addingTimeInterval(3600)
            let run = try await h.households.chore("Run", in: nil, by: f.admin) { $0.schedule = .once(due) }
            _ = try await h.chores.shareChores(NewChoreShare(selection: .chores([run.id]), recipient: .household(f.householdID)), viewer: f.admin)
            _ = try await h.runDueJobs()
            let instanceID = h.instanceID(run, at: due)
            let writes: [(String, () async throws -> Any)] = [
                ("update", { try await h.chores.updateChore(id: run.id, ChoreFields(title: "Mine"), viewer: f.member) }),
                ("delete", { try await h.chores.deleteChore(id: run.id, viewer: f.member) }),
                ("preset", { try await h.chores.saveChorePreset(choreID: run.id, viewer: f.member) }),
                ("complete", { try await h.complete(instanceID, as: f.member) }),
                ("uncomplete", { try await h.instances.uncompleteChore(instanceID: instanceID, viewer: f.member) }),
                ("claim", { try await h.claim(instanceID, as: f.member) }),
                ("release", { try await h.instances.releaseChore(instanceID: instanceID, viewer: f.member) }),
            ]
            for (name, write) in writes {
                let refused = await h.households.refusal { try await write() }
                #expect(refused?.code == .forbidden && refused?.reason == .sharedReadOnly, "\(name): \(String(describing: refused))")
            }
            #expect(try await h.chores.chore(id: run.id, viewer: f.admin).record.title == "Run")
            #expect(try await h.instances.instance(id: instanceID, viewer: f.admin).instance.status == .pending)
        }
    }

    @Test func FR40_theAnswerIsTheSameWhetherOrNotAnAccountUsesTheAddressAndYourOwnIsRefused() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let run = try await h.chore("Run", in: nil, by: f.admin)
            let known = try await h.chores.shareChores(NewChoreShare(selection: .chores([run.id]), recipient: .email("ben@example.com")), viewer: f.admin)
            let unknown = try await h.chores.shareChores(NewChoreShare(selection: .chores([run.id]), recipient: .email("nobody@example.com")), viewer: f.admin)
            #expect(known.status == unknown.status && known.recipientUserID == nil && unknown.recipientUserID == nil)
            let own = await h.refusal {
                try await h.chores.shareChores(NewChoreShare(selection: .chores([run.id]), recipient: .email("ANA@example.com")), viewer: f.admin)
            }
            #expect(own?.code == .badUserInput && own?.problems.first?.field == "input.recipient.email" && own?.problems.first?.reason == .notAllowed)
            let malformed = await h.refusal {
                try await h.chores.shareChores(NewChoreShare(selection: .chores([run.id]), recipient: .email("not an address")), viewer: f.admin)
            }
            #expect(malformed?.problems.first?.field == "input.recipient.email")
            // Only personal chores and tags of your own.
            let household = try await h.chore("Dishes", in: f.householdID, by: f.admin)
            let others = await h.refusal {
                try await h.chores.shareChores(NewChoreShare(selection: .chores([run.id, household.id]), recipient: .email("ben@example.com")), viewer: f.admin)
            }
            #expect(others?.code == .notFound && others?.problems.first?.field == "input.selection.choreIds[1]")
            let hisTag = try await h.chores.createTag(householdID: nil, name: "Ben's", viewer: f.member).tag
            let tag = await h.refusal {
                try await h.chores.shareChores(NewChoreShare(selection: .tag(hisTag.id), recipient: .email("ben@example.com")), viewer: f.admin)
            }
            #expect(tag?.code == .notFound && tag?.problems.first?.field == "input.selection.tagId")
            #expect(await h.refusal {
                try await h.chores.shareChores(NewChoreShare(selection: .chores([run.id]), recipient: .household(f.outsiderHouseholdID)), viewer: f.admin)
            } == .householdNotFound)
        }
    }

    @Test func FR40_aTagShareCoversChoresTaggedLaterAndLetsGoOfUntaggedOnes() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let tag = try await h.chores.createTag(householdID: nil, name: "Fitness", viewer: f.admin).tag
            let run = try await h.chore("Run", in: nil, by: f.admin) { $0.tagIDs = [tag.id] }
            let share = try await h.chores.shareChores(NewChoreShare(selection: .tag(tag.id), recipient: .email("ben@example.com")), viewer: f.admin)
            _ = try await h.chores.acceptShare(id: share.id, viewer: f.member)
            #expect(share.tagName == "Fitness")
            #expect(try await h.chores.sharedChores(shareID: share.id, viewer: f.member).edges.map(\.chore.id) == [run.id])
            let swim = try await h.chore("Swim", in: nil, by: f.admin)
            #expect(await h.refusal { try await h.chores.chore(id: swim.id, viewer: f.member) } == .choreNotFound)
            _ = try await h.chores.updateChore(id: swim.id, ChoreFields(tagIDs: [tag.id]), viewer: f.admin)
            #expect(try await h.chores.chore(id: swim.id, viewer: f.member).access.isShared)
            #expect(try await h.chores.sharedChores(shareID: share.id, viewer: f.member).edges.map(\.chore.title) == ["Run", "Swim"])
            _ = try await h.chores.updateChore(id: run.id, ChoreFields(tagIDs: []), viewer: f.admin)
            #expect(await h.refusal { try await h.chores.chore(id: run.id, viewer: f.member) } == .choreNotFound)
            #expect(try await h.chores.sharedChores(shareID: share.id, viewer: f.member).edges.map(\.chore.title) == ["Swim"])
            // The share goes with its tag.
            _ = try await h.chores.deleteTag(id: tag.id, viewer: f.admin)
            #expect(try await h.chores.shareReaching(share.id, viewer: f.member) == nil)
            #expect(await h.refusal { try await h.chores.chore(id: swim.id, viewer: f.member) } == .choreNotFound)
        }
    }

    @Test func FR41_aHouseholdShareReachesItsMembersAtOnceJoinersLaterAndNotThoseWhoLeft() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let run = try await h.chore("Run", in: nil, by: f.admin)
            let share = try await h.chores.shareChores(NewChoreShare(selection: .chores([run.id]), recipient: .household(f.householdID)), viewer: f.admin)
            #expect(share.status == .accepted && share.recipientHouseholdID == f.householdID)
            for member in [f.member, f.child] {
                #expect(try await h.chores.chore(id: run.id, viewer: member).access.isShared)
                #expect(try await h.chores.shares(.received, viewer: member).edges.map(\.node.id) == [share.id])
            }
            #expect(await h.refusal { try await h.chores.chore(id: run.id, viewer: f.outsider) } == .choreNotFound)
            // The owner's own list; it is not "shared with" them.
            #expect(try await h.chores.shares(.made, viewer: f.admin).edges.map(\.node.id) == [share.id])
            #expect(try await h.chores.shares(.received, viewer: f.admin).edges.isEmpty)
            #expect(try await h.chores.chore(id: run.id, viewer: f.admin).access.isManager)

            try await h.join(f.outsider, f.householdID, invitedBy: f.admin)
            #expect(try await h.chores.chore(id: run.id, viewer: f.outsider).access.isShared)
            _ = try await h.service.leaveHousehold(id: f.householdID, incompleteTasks: .unassign, viewer: f.member)
            #expect(await h.refusal { try await h.chores.chore(id: run.id, viewer: f.member) } == .choreNotFound)
            #expect(await h.refusal { try await h.chores.share(id: share.id, viewer: f.member) } == .shareNotFound)
        }
    }

    @Test func FR42_revokingRemovesAccessAtOnceAndDecliningStopsFollowing() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let run = try await h.chore("Run", in: nil, by: f.admin)
            let toBen = try await h.chores.shareChores(NewChoreShare(selection: .chores([run.id]), recipient: .email("ben@example.com")), viewer: f.admin)
            let toFlat = try await h.chores.shareChores(NewChoreShare(selection: .chores([run.id]), recipient: .household(f.householdID)), viewer: f.admin)
            _ = try await h.chores.acceptShare(id: toBen.id, viewer: f.member)
            #expect(await h.refusal { try await h.chores.revokeShare(id: toBen.id, viewer: f.member) } == .shareNotFound)
            #expect(try await h.chores.revokeShare(id: toFlat.id, viewer: f.admin) == toFlat.id)
            // Still shared with ben himself; no longer with kim through the household.
            #expect(try await h.chores.chore(id: run.id, viewer: f.member).access.isShared)
            #expect(await h.refusal { try await h.chores.chore(id: run.id, viewer: f.child) } == .choreNotFound)
            #expect(try await h.chores.declineShare(id: toBen.id, viewer: f.member) == toBen.id)
            #expect(await h.refusal { try await h.chores.chore(id: run.id, viewer: f.member) } == .choreNotFound)
            #expect(try await h.chores.share(id: toBen.id, viewer: f.admin).status == .declined)
            _ = try await h.chores.revokeShare(id: toBen.id, viewer: f.admin)
            #expect(try await h.chores.shares(.made, viewer: f.admin).edges.isEmpty)
            let again = await h.refusal { try await h.chores.revokeShare(id: toBen.id, viewer: f.admin) }
            #expect(again?.code == .notFound && again?.reason == .deleted, "revoked already: deletes win (issue 17)")
        }
    }

    @Test func shareListsArePagedNewestFirstByTheirCursors() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let run = try await h.chore("Run", in: nil, by: f.admin)
            var made: [String] = []
            for recipient in ["x@example.com", "y@example.com", "z@example.com"] {
                made.append(try await h.chores.shareChores(NewChoreShare(selection: .chores([run.id]), recipient: .email(recipient)), viewer: f.admin).id)
                h.clock.advance(seconds: 1)
            }
            let first = try await h.chores.shares(.made, viewer: f.admin, first: 2)
            #expect(first.edges.map(\.node.id) == [made[2], made[1]] && first.hasNextPage && !first.hasPreviousPage)
            let rest = try await h.chores.shares(.made, viewer: f.admin, first: 2, after: first.endCursor)
            #expect(rest.edges.map(\.node.id) == [made[0]] && !rest.hasNextPage && rest.hasPreviousPage)
            let foreign = await h.refusal { try await h.chores.shares(.made, viewer: f.admin, after: "not-a-cursor") }
            #expect(foreign?.code == .badUserInput && foreign?.problems.first?.field == "after")
            #expect(await h.refusal { try await h.chores.shares(.made, viewer: f.admin, first: 101) }?.problems.first?.field == "first")
        }
    }

    @Test func theSharingLimitsHoldAtTheirEdges() async throws {
        try await HouseholdsHarness.with(configureChores: { $0.maximumSharesPerOwner = 2; $0.maximumChoresPerShare = 2 }) { h in
            let f = try await h.choreFamily()
            let chores = [try await h.chore("A", in: nil, by: f.admin), try await h.chore("B", in: nil, by: f.admin), try await h.chore("C", in: nil, by: f.admin)]
            let two = try await h.chores.shareChores(NewChoreShare(selection: .chores(chores.prefix(2).map(\.id)), recipient: .email("x@example.com")), viewer: f.admin)
            let tooMany = await h.refusal {
                try await h.chores.shareChores(NewChoreShare(selection: .chores(chores.map(\.id)), recipient: .email("x@example.com")), viewer: f.admin)
            }
            #expect(tooMany?.code == .badUserInput && tooMany?.problems.first?.reason == .tooLong)
            let none = await h.refusal { try await h.chores.shareChores(NewChoreShare(selection: .chores([]), recipient: .email("x@example.com")), viewer: f.admin) }
            #expect(none?.problems.first?.reason == .required)
            _ = try await h.chores.shareChores(NewChoreShare(selection: .chores([chores[2].id]), recipient: .email("y@example.com")), viewer: f.admin)
            let third = await h.refusal {
                try await h.chores.shareChores(NewChoreShare(selection: .chores([chores[2].id]), recipient: .email("z@example.com")), viewer: f.admin)
            }
            #expect(third?.code == .conflict && third?.reason == .limitReached)
            _ = try await h.chores.revokeShare(id: two.id, viewer: f.admin)
            _ = try await h.chores.shareChores(NewChoreShare(selection: .chores([chores[2].id]), recipient: .email("z@example.com")), viewer: f.admin)
        }
    }
}
