import FoundationEssentials
import HearthDomain
import HearthServices
import TestFixtures
import Testing

/// US 06.03 and the visibility rule of US 05: the following feed shows the recent events of
/// accepted follows' non-private habits, newest first, and forgets a user the moment the follow ends.
struct FollowingFeedTests {
    @Test func US_06_03_theFeedShowsOnlyAcceptedFollowsNonPrivateEventsNewestFirst() async throws {
        try await FollowingHarness.with { f in
            let ana = try await f.user("ana"), ben = try await f.user("ben"), cy = try await f.user("cy1"), dee = try await f.user("dee")
            try await f.follow(ana, "ben", acceptedBy: ben)
            _ = try await f.follows.requestFollow(username: "cy1", viewer: ana)
            let run = try f.habit("Run", of: ben), diary = try f.habit("Diary", of: ben, private: true)
            let first = try f.event(of: run, by: ben, comment: "5 km")
            f.clock.advance(seconds: 10)
            try f.event(of: diary, by: ben, comment: "secret")
            try f.event(of: try f.habit("Swim", of: cy), by: cy)
            try f.event(of: try f.habit("Read", of: dee), by: dee)
            try f.event(of: try f.habit("Mine", of: ana), by: ana)
            f.clock.advance(seconds: 10)
            let second = try f.event(of: run, by: ben, at: (38.72, -9.14))
            let feed = try await f.follows.feed(viewer: ana)
            #expect(feed.edges.map(\.node.event.id) == [second, first])
            let newest = feed.edges[0].node
            #expect(newest.habitTitle == "Run" && newest.owner.username == "ben")
            #expect(newest.event.location?.latitude == 38.72 && newest.event.location?.longitude == -9.14)
            #expect(feed.edges[1].node.event.comment == "5 km" && feed.edges[1].node.event.location == nil)
            // Ben sees nothing of Ana's: following is one way.
            #expect(try await f.follows.feed(viewer: ben).edges.isEmpty)
            let page = try await f.follows.feed(viewer: ana, first: 1)
            #expect(page.edges.map(\.node.event.id) == [second] && page.hasNextPage)
            #expect(try await f.follows.feed(viewer: ana, first: 1, after: page.endCursor).edges.map(\.node.event.id) == [first])
        }
    }

    @Test func US_05_unfollowingOrBeingRemovedEmptiesTheFeedAtOnce() async throws {
        try await FollowingHarness.with { f in
            let ana = try await f.user("ana"), ben = try await f.user("ben")
            let follow = try await f.follow(ana, "ben", acceptedBy: ben)
            try f.event(of: try f.habit("Run", of: ben), by: ben, at: (1, 2))
            func seen() async throws -> [Int] { [try await f.follows.feed(viewer: ana).edges.count, try await f.follows.feedMap(viewer: ana).count] }
            #expect(try await seen() == [1, 1])
            _ = try await f.follows.removeFollower(id: follow, viewer: ben)
            #expect(try await seen() == [0, 0])
            let again = try await f.follow(ana, "ben", acceptedBy: ben)
            #expect(try await seen() == [1, 1])
            _ = try await f.follows.unfollow(id: again, viewer: ana)
            #expect(try await seen() == [0, 0])
        }
    }

    @Test func US_06_03_recentMeansTheLast30DaysByDefaultAndSinceReachesBackAtMostTheMaximum() async throws {
        try await FollowingHarness.with(configure: { $0.maximumFeedDays = 40 }) { f in
            let ana = try await f.user("ana"), ben = try await f.user("ben")
            try await f.follow(ana, "ben", acceptedBy: ben)
            let run = try f.habit("Run", of: ben)
            let old = try f.event(of: run, by: ben)
            f.clock.advance(seconds: 86_400)
            let recent = try f.event(of: run, by: ben)
            f.clock.advance(seconds: 30 * 86_400)
            // `old` is 31 days old, `recent` exactly 30 days.
            #expect(try await f.follows.feed(viewer: ana).edges.map(\.node.event.id) == [recent])
            let limit = f.clock.now.addingTimeInterval(-40 * 86_400)
            #expect(try await f.follows.feed(viewer: ana, since: limit).edges.map(\.node.event.id) == [recent, old])
            let tooFar = await f.refusal { try await f.follows.feed(viewer: ana, since: limit.addingTimeInterval(-1)) }
            #expect(tooFar?.code == .badUserInput && tooFar?.problems.first?.field == "since" && tooFar?.problems.first?.reason == .outOfRange)
            let mapTooFar = await f.refusal { try await f.follows.feedMap(viewer: ana, since: limit.addingTimeInterval(-1)) }
            #expect(mapTooFar?.code == .badUserInput)
        }
    }

    @Test func US_06_03_theMapHoldsOnlyLocatedEventsUpToTheConfiguredMaximum() async throws {
        try await FollowingHarness.with(configure: { $0.maximumMapEvents = 2 }) { f in
            let ana = try await f.user("ana"), ben = try await f.user("ben")
            try await f.follow(ana, "ben", acceptedBy: ben)
            let run = try f.habit("Run", of: ben)
            var located: [String] = []
            for index in 0..<3 {
                located.append(try f.event(of: run, by: ben, at: (Double(index), 10)))
                try f.event(of: run, by: ben)
                f.clock.advance(seconds: 1)
            }
            #expect(try await f.follows.feedMap(viewer: ana).map(\.event.id) == [located[2], located[1]])
        }
    }
}
