import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// US 05: asking to follow by username, answering, unfollowing and removing followers, the lists,
/// the limits and the events every change records for both users' devices.
struct FollowRequestTests {
    @Test func US_05_aRequestByUsernameIgnoresCaseWaitsForTheAnswerAndIsListedOnBothSides() async throws {
        try await FollowingHarness.with { f in
            let ana = try await f.user("ana"), ben = try await f.user("Ben.K")
            let request = try await f.follows.requestFollow(username: "  ben.k ", viewer: ana)
            #expect(request.status == .requested && request.follower.id == ana.userID && request.followed.id == ben.userID && request.acceptedAt == nil)
            #expect(request.id.hasPrefix("fol_"))
            #expect(try await f.follows.follows(.incomingRequests, viewer: ben).edges.map(\.node.id) == [request.id])
            #expect(try await f.follows.follows(.sentRequests, viewer: ana).edges.map(\.node.id) == [request.id])
            for list in [FollowService.FollowList.followers, .following] {
                #expect(try await f.follows.follows(list, viewer: ana).edges.isEmpty)
                #expect(try await f.follows.follows(list, viewer: ben).edges.isEmpty)
            }
            f.clock.advance(seconds: 60)
            let accepted = try await f.follows.acceptFollowRequest(id: request.id, viewer: ben)
            #expect(accepted.status == .accepted && accepted.acceptedAt == f.clock.storedNow)
            #expect(try await f.follows.follows(.followers, viewer: ben).edges.map(\.node.follower.username) == ["ana"])
            #expect(try await f.follows.follows(.following, viewer: ana).edges.map(\.node.followed.username) == ["Ben.K"])
            #expect(try await f.follows.follows(.incomingRequests, viewer: ben).edges.isEmpty)
            #expect(try await f.follows.follows(.sentRequests, viewer: ana).edges.isEmpty)
        }
    }

    @Test func US_05_everyRefusalOfARequestIsClear() async throws {
        try await FollowingHarness.with { f in
            let ana = try await f.user("ana"), ben = try await f.user("ben"), cy = try await f.user("cy1")
            await f.expectRefusal(.userNotFound) { try await f.follows.requestFollow(username: "nobody", viewer: ana) }
            let own = await f.refusal { try await f.follows.requestFollow(username: "ANA", viewer: ana) }
            #expect(own?.code == .badUserInput && own?.problems.first?.field == "input.username" && own?.problems.first?.reason == .notAllowed)
            let malformed = await f.refusal { try await f.follows.requestFollow(username: "a b", viewer: ana) }
            #expect(malformed?.code == .badUserInput && malformed?.problems.first?.reason == .invalidFormat)
            let request = try await f.follows.requestFollow(username: "ben", viewer: ana)
            let again = await f.refusal { try await f.follows.requestFollow(username: "Ben", viewer: ana) }
            #expect(again?.code == .conflict && again?.reason == .alreadyRequested)
            // Only the followed user answers, once.
            await f.expectRefusal(.followNotFound) { try await f.follows.acceptFollowRequest(id: request.id, viewer: ana) }
            await f.expectRefusal(.followNotFound) { try await f.follows.acceptFollowRequest(id: request.id, viewer: cy) }
            await f.expectRefusal(.followNotFound) { try await f.follows.declineFollowRequest(id: request.id, viewer: cy) }
            await f.expectRefusal(.followNotFound) { try await f.follows.removeFollower(id: request.id, viewer: ben) }
            await f.expectRefusal(.followNotFound) { try await f.follows.unfollow(id: request.id, viewer: ben) }
            await f.expectRefusal(.followNotFound) { try await f.follows.follow(id: request.id, viewer: cy) }
            await f.expectRefusal(.followNotFound) { try await f.follows.acceptFollowRequest(id: "hab_0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", viewer: ben) }
            _ = try await f.follows.acceptFollowRequest(id: request.id, viewer: ben)
            await f.expectRefusal(.followNotFound) { try await f.follows.acceptFollowRequest(id: request.id, viewer: ben) }
            await f.expectRefusal(.followNotFound) { try await f.follows.declineFollowRequest(id: request.id, viewer: ben) }
            let following = await f.refusal { try await f.follows.requestFollow(username: "ben", viewer: ana) }
            #expect(following?.code == .conflict && following?.reason == .alreadyFollowing)
        }
    }

    @Test func US_05_decliningUnfollowingAndRemovingDeleteTheFollowSoANewRequestMayFollow() async throws {
        try await FollowingHarness.with { f in
            let ana = try await f.user("ana"), ben = try await f.user("ben")
            let declined = try await f.follows.requestFollow(username: "ben", viewer: ana)
            #expect(try await f.follows.declineFollowRequest(id: declined.id, viewer: ben) == declined.id)
            await f.expectRefusal(.followNotFound) { try await f.follows.follow(id: declined.id, viewer: ana) }
            // Withdrawing a request is unfollowing it.
            let withdrawn = try await f.follows.requestFollow(username: "ben", viewer: ana)
            #expect(try await f.follows.unfollow(id: withdrawn.id, viewer: ana) == withdrawn.id)
            #expect(try await f.follows.follows(.incomingRequests, viewer: ben).edges.isEmpty)
            let unfollowed = try await f.follow(ana, "ben", acceptedBy: ben)
            _ = try await f.follows.unfollow(id: unfollowed, viewer: ana)
            #expect(try await f.follows.follows(.followers, viewer: ben).edges.isEmpty)
            let removed = try await f.follow(ana, "ben", acceptedBy: ben)
            #expect(try await f.follows.removeFollower(id: removed, viewer: ben) == removed)
            #expect(try await f.follows.follows(.following, viewer: ana).edges.isEmpty)
            #expect(try await f.follows.requestFollow(username: "ben", viewer: ana).status == .requested)
        }
    }

    @Test func aReplayWithTheSameClientMutationIdReturnsTheFirstFollowAndAsksNothingMore() async throws {
        try await FollowingHarness.with { f in
            let ana = try await f.user("ana"), ben = try await f.user("ben")
            let first = try await f.follows.requestFollow(username: "ben", viewer: ana, clientMutationID: "m1")
            let replay = try await f.follows.requestFollow(username: "ben", viewer: ana, clientMutationID: "m1")
            #expect(replay.id == first.id)
            #expect(try await f.follows.follows(.incomingRequests, viewer: ben).edges.count == 1)
            let reused = await f.refusal { try await f.follows.unfollow(id: first.id, viewer: ana, clientMutationID: "m1") }
            #expect(reused?.reason == .clientMutationIdReused)
        }
    }

    @Test func theFollowsOfOneUserAreLimitedAtTheConfiguredMaximum() async throws {
        try await FollowingHarness.with(configure: { $0.maximumFollowsPerUser = 2 }) { f in
            let ana = try await f.user("ana"), ben = try await f.user("ben"), _ = try await f.user("cy1"), _ = try await f.user("dee")
            let accepted = try await f.follow(ana, "ben", acceptedBy: ben)
            _ = try await f.follows.requestFollow(username: "cy1", viewer: ana)
            let refused = await f.refusal { try await f.follows.requestFollow(username: "dee", viewer: ana) }
            #expect(refused?.code == .conflict && refused?.reason == .limitReached)
            _ = try await f.follows.unfollow(id: accepted, viewer: ana)
            #expect(try await f.follows.requestFollow(username: "dee", viewer: ana).status == .requested)
        }
    }

    @Test func theRequestsWaitingForAnAnswerAreLimitedAtTheConfiguredMaximum() async throws {
        try await FollowingHarness.with(configure: { $0.maximumPendingRequestsPerUser = 2 }) { f in
            let ana = try await f.user("ana"), ben = try await f.user("ben"), cy = try await f.user("cy1"), _ = try await f.user("dee")
            let toBen = try await f.follows.requestFollow(username: "ben", viewer: ana)
            _ = try await f.follows.requestFollow(username: "cy1", viewer: ana)
            let refused = await f.refusal { try await f.follows.requestFollow(username: "dee", viewer: ana) }
            #expect(refused?.code == .conflict && refused?.reason == .limitReached)
            // An answered request no longer waits.
            _ = try await f.follows.acceptFollowRequest(id: toBen.id, viewer: ben)
            #expect(try await f.follows.requestFollow(username: "dee", viewer: ana).status == .requested)
            _ = cy
        }
    }

    @Test func requestsAreRateLimitedPerUserRefusedOnesIncluded() async throws {
        try await FollowingHarness.with(configure: { $0.followRequestsPerUser = .perInterval(1, seconds: 60, burst: 2) }) { f in
            let ana = try await f.user("ana"), _ = try await f.user("ben"), eve = try await f.user("eve")
            await f.expectRefusal(.userNotFound) { try await f.follows.requestFollow(username: "nobody", viewer: ana) }
            _ = try await f.follows.requestFollow(username: "ben", viewer: ana)
            let limited = await f.refusal { try await f.follows.requestFollow(username: "eve", viewer: ana) }
            #expect(limited?.code == .rateLimited && limited?.retryAfter == 60)
            // Per user: others are not slowed.
            _ = try await f.follows.requestFollow(username: "ana", viewer: eve)
            f.clock.advance(seconds: 60)
            #expect(try await f.follows.requestFollow(username: "eve", viewer: ana).status == .requested)
        }
    }

    @Test func everyChangeIsRecordedOnBothUsersTopics() async throws {
        try await FollowingHarness.with { f in
            let ana = try await f.user("ana"), ben = try await f.user("ben")
            let id = try await f.follow(ana, "ben", acceptedBy: ben)
            _ = try await f.follows.removeFollower(id: id, viewer: ben)
            let request = try await f.follows.requestFollow(username: "ben", viewer: ana)
            _ = try await f.follows.declineFollowRequest(id: request.id, viewer: ben)
            let again = try await f.follows.requestFollow(username: "ben", viewer: ana)
            _ = try await f.follows.unfollow(id: again.id, viewer: ana)
            let expected: [EventKind] = [
                .followRequested, .followAccepted, .followRemoved, .followRequested, .followDeclined, .followRequested, .followCancelled,
            ]
            for user in [ana, ben] {
                let events = try await f.h.accounts.changeLog.changes(after: 0, topics: [.user(user.userID)], limit: 1000)
                    .filter { $0.kind.rawValue.hasPrefix("follow.") }
                #expect(events.map(\.kind) == expected)
                let change = try events[1].payload.decode(FollowChange.self)
                #expect(change == FollowChange(followID: id, followerID: ana.userID, followedID: ben.userID))
            }
        }
    }

    @Test func theListsArePagesNewestFirst() async throws {
        try await FollowingHarness.with { f in
            let ana = try await f.user("ana")
            var ids: [String] = []
            for name in ["ben", "cy1", "dee"] {
                _ = try await f.user(name)
                ids.append(try await f.follows.requestFollow(username: name, viewer: ana).id)
                f.clock.advance(seconds: 1)
            }
            let first = try await f.follows.follows(.sentRequests, viewer: ana, first: 2)
            #expect(first.edges.map(\.node.id) == [ids[2], ids[1]] && first.hasNextPage)
            let rest = try await f.follows.follows(.sentRequests, viewer: ana, first: 2, after: first.endCursor)
            #expect(rest.edges.map(\.node.id) == [ids[0]] && !rest.hasNextPage && rest.hasPreviousPage)
            let bad = await f.refusal { try await f.follows.follows(.sentRequests, viewer: ana, first: 101) }
            #expect(bad?.problems.first?.field == "first")
        }
    }

    @Test func deletingAnAccountRemovesItsFollowsBothWaysLeavingNothingDangling() async throws {
        try await FollowingHarness.with { f in
            let ana = try await f.user("ana"), ben = try await f.user("ben"), cy = try await f.user("cy1")
            try await f.follow(ana, "ben", acceptedBy: ben)
            try await f.follow(ben, "cy1", acceptedBy: cy)
            _ = try await f.follows.requestFollow(username: "ana", viewer: ben)
            try f.event(of: try f.habit("Run", of: ben), by: ben)
            try await f.h.pool.write { database in try database.execute("DELETE FROM users WHERE id = ?", [ben.userID]) }
            let left = try await f.h.pool.read { database in try database.scalar(Int.self, "SELECT count(*) FROM follows") }
            #expect(left == 0)
            #expect(try await f.follows.follows(.following, viewer: ana).edges.isEmpty)
            #expect(try await f.follows.follows(.incomingRequests, viewer: ana).edges.isEmpty)
            #expect(try await f.follows.follows(.followers, viewer: cy).edges.isEmpty)
            #expect(try await f.follows.feed(viewer: ana).edges.isEmpty)
            let foreignKeyProblems = try await f.h.pool.read { database in try database.foreignKeyViolationCount() }
            #expect(foreignKeyProblems == 0)
        }
    }
}
