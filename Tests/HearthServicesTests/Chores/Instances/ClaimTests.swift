import FoundationEssentials
import HearthDomain
@testable import HearthServices
import Testing
import TestFixtures

/// Claiming shared instances (FR-51 – FR-53): offers when they come due, exactly one claimant
/// under any concurrency, the claimant's list, releasing and re-offering, and completing what
/// someone claimed.
@Suite struct ClaimTests {
    /// A `SINGLE_ACTION` chore without a rule (every adult is eligible: Ana and Ben, not Kim) due
    /// in an hour, with its instance.
    private static func shared(_ harness: InstancesHarness, _ family: ChoreFamily, _ title: String = "Bins") async throws -> (ChoreRecord, String) {
        try await harness.oneOffChore(family, title) {
            $0.assignmentMode = .singleAction
            $0.assigneeIDs = []
        }
    }

    /// An adult member `name` (role member) of the family's household, with their member id.
    private static func adult(_ name: String, _ harness: InstancesHarness, _ family: ChoreFamily) async throws -> (Viewer, String) {
        let viewer = try await harness.households.confirmedViewer(name)
        let id = try harness.households.addAccountMember(viewer, family.householdID)
        try await harness.pool.write { try $0.execute("UPDATE members SET display_name = ? WHERE id = ?", [name, id]) }
        return (viewer, id)
    }

    /// What `body` returns or throws.
    private static func attempt<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    private static let claimKinds: [EventKind] = [.choreInstanceOffered, .choreInstanceClaimed, .choreInstanceReleased]

    @Test func FR52_ofSixtyFourConcurrentClaimsExactlyOneWinsAndEveryOtherIsAConflictNamingTheClaimant() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (_, id) = try await Self.shared(harness, family)
            var people = [family.admin, family.member]
            for index in 0..<6 { people.append(try await Self.adult("adult\(index)", harness, family).0) }
            let outcomes = await withTaskGroup(of: Result<ClaimResult, any Error>.self) { group in
                for index in 0..<64 {
                    let viewer = people[index % people.count]
                    group.addTask { await Self.attempt { try await harness.claim(id, as: viewer) } }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let winners = outcomes.compactMap { try? $0.get() }
            #expect(winners.count == 1)
            let claimant = try #require(winners.first?.member)
            #expect(winners.first?.instance.instance.claimantID == claimant.id)
            for case .failure(let error) in outcomes {
                let refusal = try #require(error as? ServiceError)
                #expect(refusal.code == .conflict && refusal.reason == .alreadyClaimed, "\(refusal)")
                #expect(refusal.related["claimant"] == ["id": claimant.id, "displayName": claimant.displayName])
                #expect(refusal.message.contains(claimant.displayName) || refusal.message == "You claimed this chore already.")
            }
            #expect(try harness.events([.choreInstanceClaimed]).count == 1)
        }
    }

    @Test func FR52_aClaimedInstanceMovesToTheClaimantsListAndTheOthersGetADismissalInItsCommit() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (_, id) = try await Self.shared(harness, family)
            func listed(_ viewer: Viewer) async throws -> Bool {
                try await harness.instances.myChores(viewer: viewer).edges.contains { $0.node.instance.id == id }
            }
            #expect(try await listed(family.admin))
            #expect(try await listed(family.member))
            #expect(try await !listed(family.child))
            let claimed = try await harness.claim(id, as: family.member)
            #expect(claimed.member.id == family.memberID && claimed.instance.instance.claimedAt != nil)
            #expect(try await listed(family.member))
            #expect(try await !listed(family.admin))
            let names = [id: "i", family.memberID: "ben", family.adminMemberID: "ana"]
            #expect(try harness.events(Self.claimKinds, names: names) == ["claimed i ben [ana]"])
        }
    }

    @Test func anAssigneeLosesAnInstanceAFallbackCompleterClaimedAndOnlyTheClaimantOrAnAdminCompletesIt() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (carl, carlID) = try await Self.adult("carl", harness, family)
            // Ben's chore, Carl its fallback (members may complete it).
            let (_, id) = try await harness.oneOffChore(family, "Lawn") { $0.completers = PermissionRule(memberIDs: [carlID]) }
            #expect(try await harness.instances.myChores(viewer: family.member).edges.contains { $0.node.instance.id == id })
            try await harness.claim(id, as: carl)
            #expect(try await harness.instances.myChores(viewer: family.member).edges.allSatisfy { $0.node.instance.id != id })
            #expect(try await harness.instances.myChores(viewer: carl).edges.contains { $0.node.instance.id == id })
            let refused = await harness.households.refusal { try await harness.complete(id, as: family.member) }
            #expect(refused?.code == .forbidden && refused?.reason == .claimedByOther && refused?.related["claimant"]?["id"] == carlID)
            #expect(refused?.message == "carl claimed this chore: only carl or an admin may complete it.", "\(String(describing: refused))")
            #expect(try await harness.complete(id, as: carl).outcome == .completed)
            // An admin completes what someone else claimed.
            let (_, other) = try await harness.oneOffChore(family, "Hedge") { $0.completers = PermissionRule(memberIDs: [carlID]) }
            try await harness.claim(other, as: carl)
            #expect(try await harness.complete(other, as: family.admin).outcome == .completed)
        }
    }

    @Test func whoMayClaimAndWhatIsClaimable() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (_, id) = try await Self.shared(harness, family)
            let child = await harness.households.refusal { try await harness.claim(id, as: family.child) }
            #expect(child?.code == .forbidden && child?.reason == .choreCompleters)
            #expect(child?.message.hasPrefix("This chore may be claimed only by admins and every adult;") == true, "\(String(describing: child))")
            let outsider = await harness.households.refusal { try await harness.claim(id, as: family.outsider) }
            let unknown = await harness.households.refusal {
                try await harness.claim("chi_01900000-0000-7000-8000-000000000000", as: family.outsider)
            }
            #expect(outsider?.code == .notFound && outsider == unknown)
            // Admins claim what they are not eligible for (they may complete anything).
            let (_, bens) = try await harness.oneOffChore(family, "Ben's")
            #expect(try await harness.claim(bens, as: family.admin).member.id == family.adminMemberID)
            // Personal chores and a member's own instance are not claimable.
            let personal = try await harness.households.chore("Run", in: nil, by: family.member) { $0.schedule = .once(harness.clock.now.addingTimeInterval(60)) }
            let mine = await harness.households.refusal { try await harness.claim(harness.instanceID(personal, at: harness.clock.now.addingTimeInterval(60)), as: family.member) }
            #expect(mine?.code == .conflict && mine?.reason == .notClaimable)
            let (group, _) = try await harness.oneOffChore(family, "Group") {
                $0.assignmentMode = .group
                $0.assigneeIDs = [family.memberID, family.adminMemberID]
            }
            let own = harness.instanceID(group, at: harness.clock.now.addingTimeInterval(3600), member: family.memberID)
            #expect(await harness.households.refusal { try await harness.claim(own, as: family.admin) }?.reason == .notClaimable)
            // Done: a conflict.
            try await harness.complete(id, as: family.member)
            let done = await harness.households.refusal { try await harness.claim(id, as: family.admin) }
            #expect(done?.code == .conflict && done?.reason == .alreadyCompleted)
            let (chore, cancelled) = try await Self.shared(harness, family, "Gone")
            _ = try await harness.chores.deleteChore(id: chore.id, viewer: family.admin)
            // A deleted chore's (cancelled) instance is not found, as for completing it.
            #expect(await harness.households.refusal { try await harness.claim(cancelled, as: family.admin) }?.code == .notFound)
        }
    }

    @Test func claimingAnInstanceBeyondTheHorizonStoresItAndAReplayReturnsTheFirstResult() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let due = harness.clock.now.addingTimeInterval(40 * 86_400)
            let chore = try await harness.households.chore("Windows", in: family.householdID, by: family.admin) {
                $0.assignmentMode = .singleAction
                $0.schedule = .once(due)
            }
            let id = harness.instanceID(chore, at: due)
            #expect(try harness.storedCount(of: chore.id) == 0)
            let first = try await harness.claim(id, as: family.member, replaying: "claim-1")
            #expect(first.instance.instance.isMaterialized && first.instance.instance.claimantID == family.memberID)
            #expect(try harness.storedInstances(of: chore.id).count == 1)
            try await harness.instances.releaseChore(instanceID: id, viewer: family.member)
            let replay = try await harness.claim(id, as: family.member, replaying: "claim-1")
            #expect(replay.member.id == family.memberID && replay.instance.instance.claimantID == nil)
            #expect(try harness.events([.choreInstanceClaimed]).count == 1)
        }
    }

    @Test func claimVersusCompleteAlwaysEndsOneWay() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            var endings: Set<String> = []
            let (carl, _) = try await Self.adult("carl", harness, family)
            for round in 0..<12 {
                let (_, id) = try await Self.shared(harness, family, "Race \(round)")
                async let claim = Self.attempt { try await harness.claim(id, as: family.member) }
                async let completion = Self.attempt { try await harness.complete(id, as: carl) }
                let (claimed, completed) = await (claim, completion)
                let claimError = (try? claimed.get()) == nil
                let completeError = (try? completed.get()) == nil
                // Ben claims while Carl completes: one of them comes first and the other is refused for it.
                if case .failure(let error as ServiceError) = claimed {
                    #expect(error.reason == .alreadyCompleted, "\(error)")
                    endings.insert("completed first")
                }
                if case .failure(let error as ServiceError) = completed {
                    #expect(error.reason == .claimedByOther, "\(error)")
                    endings.insert("claimed first")
                }
                #expect(!(claimError && completeError))
                let status = try await harness.instances.instance(id: id, viewer: family.admin).instance.status
                #expect((status == .completed) == !completeError)
            }
            #expect(!endings.isEmpty, "\(endings)")
        }
    }

    @Test func FR53_releasingMakesItClaimableAgainAndReoffersADueInstanceToTheOthers() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (carl, carlID) = try await Self.adult("carl", harness, family)
            let (_, id) = try await Self.shared(harness, family)
            let names = [id: "i", family.memberID: "ben", family.adminMemberID: "ana", carlID: "carl"]
            let nothing = await harness.households.refusal { try await harness.instances.releaseChore(instanceID: id, viewer: family.member) }
            #expect(nothing?.code == .conflict && nothing?.reason == .notClaimed)
            try await harness.claim(id, as: family.member)
            let others = await harness.households.refusal { try await harness.instances.releaseChore(instanceID: id, viewer: carl) }
            #expect(others?.code == .forbidden && others?.reason == .claimedByOther && others?.related["claimant"]?["id"] == family.memberID)
            // Before its due time the release offers nothing: the offer comes when it is due.
            let released = try await harness.instances.releaseChore(instanceID: id, viewer: family.member)
            #expect(released.member.id == family.memberID && released.instance.instance.claimantID == nil)
            try await harness.claim(id, as: carl)
            try await harness.advance(seconds: 3600)
            // Claimed when due: not offered. An admin releases Carl's claim: offered to everyone eligible but Carl and the admin.
            try await harness.instances.releaseChore(instanceID: id, viewer: family.admin)
            let events = try harness.events(Self.claimKinds, names: names)
            #expect(events == ["claimed i ben [ana carl]", "released i ben", "claimed i carl [ana ben]", "released i carl", "offered i - [ben]"], "\(events)")
        }
    }

    @Test func FR51_aDueSharedInstanceIsOfferedOnceToAllItsEligibleMembersWhenThereAreSeveral() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (_, id) = try await Self.shared(harness, family)
            // Ben's own chore, nobody else eligible: never offered.
            let (_, alone) = try await harness.oneOffChore(family, "Ben's")
            // Ben's chore with Kim as its fallback: offered to both.
            let (_, fallback) = try await harness.oneOffChore(family, "Fallback") { $0.completers = PermissionRule(memberIDs: [family.childMemberID]) }
            let names = [id: "bins", alone: "alone", fallback: "fallback", family.memberID: "ben", family.adminMemberID: "ana", family.childMemberID: "kim"]
            try await harness.advance(seconds: 3599)
            #expect(try harness.events(Self.claimKinds).isEmpty)
            try await harness.advance(seconds: 1)
            let offers = try harness.events(Self.claimKinds, names: names)
            #expect(offers.sorted() == ["offered bins - [ana ben]", "offered fallback - [ben kim]"].sorted(), "\(offers)")
            // Running the jobs again offers nothing twice.
            try await harness.pool.write { try $0.execute("UPDATE jobs SET state = 'pending', due_at = ? WHERE kind = 'chore.offer'", [harness.clock.now]) }
            try await harness.runDueJobs()
            #expect(try harness.events(Self.claimKinds).count == 2)
        }
    }

    @Test func afterADowntimeOnlyTheLatestDueOccurrenceOfAChoreIsOffered() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let chore = try await harness.households.chore("Dishes", in: family.householdID, by: family.admin) {
                $0.assignmentMode = .singleAction
                $0.schedule = harness.daily()
            }
            harness.clock.advance(seconds: 3 * 86_400 + 3600)
            try await harness.runDueJobs()
            let offered = try harness.events([.choreInstanceOffered])
            let latest = harness.instanceID(chore, at: harness.clock.now)
            #expect(offered.count == 1 && offered.first?.contains(latest) == true, "\(offered)")
        }
    }

    @Test func aDepartingMembersClaimsAreReleasedAndReoffered() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (carl, carlID) = try await Self.adult("carl", harness, family)
            let (_, id) = try await Self.shared(harness, family)
            try await harness.advance(seconds: 3600)
            try await harness.claim(id, as: family.member)
            _ = try await harness.households.service.leaveHousehold(id: family.householdID, incompleteTasks: .unassign, viewer: family.member)
            let names = [id: "i", family.memberID: "ben", family.adminMemberID: "ana", carlID: "carl"]
            let events = try harness.events(Self.claimKinds, names: names)
            #expect(events.suffix(2) == ["released i ben", "offered i - [ana carl]"], "\(events)")
            #expect(try await harness.instances.instance(id: id, viewer: family.admin).instance.claimantID == nil)
        }
    }
}
