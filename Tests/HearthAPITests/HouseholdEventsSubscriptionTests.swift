import Foundation
import GraphQL
import HearthAPI
import HearthDomain
import HearthServices
import HearthStore
import Support
import TestFixtures
import Testing

/// `Subscription.householdEvents` of the real `schema.graphql` over the household service and its
/// in-process bus, through `GraphQLService.operate` (the path the WebSocket endpoint takes).
///
/// Membership changes are committed the way the membership service commits them: the row change and
/// its event (kinds and payload of `HouseholdEvents.swift`) in one write transaction, published after
/// commit. The subscription depends on that contract only; the end-to-end tests drive the mutations.
@Suite struct HouseholdEventsSubscriptionTests {
    static let query = """
        subscription($id: ID!) {
          householdEvents(householdId: $id) {
            sequence kind householdId memberId incompleteTasks missedEvents household { name } member { displayName role }
          }
        }
        """

    private func kinds(_ responses: [ExecutionResult]) -> [JSON?] {
        responses.map { $0.data?["householdEvents"]?["kind"] }
    }

    /// Reads responses until the stream ends.
    private func remaining(_ iterator: inout MaskedResponseStream.AsyncIterator) async throws -> [ExecutionResult] {
        var responses: [ExecutionResult] = []
        while let response = try await iterator.next() { responses.append(response) }
        return responses
    }

    @Test func aMemberReceivesTheirHouseholdsEventsInCommitOrderWithTheCurrentState() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let ben = try await fixture.person("ben")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let (cabin, _) = try await fixture.household("Cabin", by: ben)
            let stream = try await fixture.events(Self.query, flat, as: ana)
            #expect(fixture.bus.subscriberCount(for: .household(flat)) == 1)

            let benInFlat = try await fixture.join(flat, ben, as: "Ben")
            try await fixture.commit(
                .householdUpdated, HouseholdChange(householdID: cabin), "UPDATE households SET name = 'Big Cabin' WHERE id = ?", [cabin])
            try await fixture.commit(
                .memberRoleChanged, HouseholdChange(householdID: flat, memberID: benInFlat, userID: ben.userID),
                "UPDATE members SET role = 'admin' WHERE id = ? AND household_id = ?", [benInFlat, flat])
            try await fixture.commit(
                .householdUpdated, HouseholdChange(householdID: flat), "UPDATE households SET name = 'City Flat' WHERE id = ?", [flat])

            var iterator = stream.makeAsyncIterator()
            var responses: [ExecutionResult] = []
            for _ in 0..<3 { responses.append(try #require(try await iterator.next())) }
            #expect(kinds(responses) == ["MEMBER_JOINED", "MEMBER_ROLE_CHANGED", "HOUSEHOLD_UPDATED"])
            let sequences = responses.compactMap { response -> Int64? in
                guard case .string(let text)? = response.data?["householdEvents"]?["sequence"] else { return nil }
                return Int64(text)
            }
            #expect(sequences.count == 3 && sequences == sequences.sorted())
            for response in responses {
                #expect(response.errors.isEmpty)
                #expect(response.data?["householdEvents"]?["householdId"] == .string(flat))
                #expect(response.data?["householdEvents"]?["missedEvents"] == false)
                // The current state when delivered, not the state at the event.
                #expect(response.data?["householdEvents"]?["household"]?["name"] == "City Flat")
            }
            #expect(responses[0].data?["householdEvents"]?["memberId"] == .string(benInFlat))
            #expect(responses[0].data?["householdEvents"]?["member"]?["displayName"] == "Ben")
            #expect(responses[1].data?["householdEvents"]?["member"]?["role"] == "ADMIN")
            #expect(responses[2].data?["householdEvents"]?["memberId"] == .null)
            #expect(responses[2].data?["householdEvents"]?["member"] == .null)
        }
    }

    @Test func eventsTheSubscriptionDoesNotReportAreSkippedButMissedEventsAreStillReported() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let (flat, anaMember) = try await fixture.household("Flat", by: ana)
            let stream = try await fixture.events(Self.query, flat, as: ana)
            let at = fixture.harness.clock.now
            func event(_ sequence: Int, _ kind: EventKind) throws -> Event {
                Event(
                    sequence: Int64(1000 + sequence), topic: .household(flat), kind: kind,
                    payload: try EventPayload(HouseholdChange(householdID: flat, memberID: anaMember)), committedAt: at)
            }
            // The buffer overflows with events of kinds this subscription does not report (the creation, and
            // another feature's events on the household's topic), then one it reports arrives.
            let overflowing = HearthSchema.subscriptionBufferSize + 5
            fixture.bus.publish(try (0..<overflowing).map { try event($0, $0.isMultiple(of: 2) ? .householdCreated : "leaderboard.updated") })
            fixture.bus.publish([try event(overflowing, .memberUpdated), try event(overflowing + 1, .memberUpdated)])
            var iterator = stream.makeAsyncIterator()
            let first = try #require(try await iterator.next())
            let second = try #require(try await iterator.next())
            #expect(kinds([first, second]) == ["MEMBER_UPDATED", "MEMBER_UPDATED"])
            #expect(first.data?["householdEvents"]?["missedEvents"] == true)
            #expect(second.data?["householdEvents"]?["missedEvents"] == false)
            #expect(first.data?["householdEvents"]?["member"]?["displayName"] == "ana")
        }
    }

    @Test func nonMembersAndUnknownHouseholdsGetTheSameNotFound() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let ben = try await fixture.person("ben")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            var errors: [GraphQLError] = []
            for id in [flat, GlobalID.make(.household, now: Date()).rawValue] {
                guard case .single(let outcome) = await fixture.subscribe(Self.query, id, as: ben) else {
                    Issue.record("a non-member was admitted to \(id)")
                    continue
                }
                #expect(outcome.result.data == nil)
                errors += outcome.result.errors
            }
            #expect(errors.count == 2)
            #expect(errors.map { $0.extensions["code"] } == ["NOT_FOUND", "NOT_FOUND"])
            #expect(errors.map(\.message) == [errors[0].message, errors[0].message])
            #expect(fixture.bus.subscriberCount == 0)
        }
    }

    @Test func theStreamEndsAfterTheSubscribersOwnDepartureButNotAfterSomeoneElses() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let ben = try await fixture.person("ben")
            let cleo = try await fixture.person("cleo")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let benInFlat = try await fixture.join(flat, ben, as: "Ben")
            let cleoInFlat = try await fixture.join(flat, cleo, as: "Cleo")
            let stream = try await fixture.events(Self.query, flat, as: ben)
            try await fixture.depart(.memberRemoved, flat, memberID: cleoInFlat, of: cleo)
            var iterator = stream.makeAsyncIterator()
            let removed = try #require(try await iterator.next())
            #expect(kinds([removed]) == ["MEMBER_REMOVED"])
            #expect(removed.data?["householdEvents"]?["household"]?["name"] == "Flat")
            #expect(removed.data?["householdEvents"]?["member"] == .null)

            try await fixture.depart(.memberLeft, flat, memberID: benInFlat, of: ben)
            // Committed after Ben left: never delivered to him.
            try await fixture.commit(
                .householdUpdated, HouseholdChange(householdID: flat), "UPDATE households SET name = 'Flat 2' WHERE id = ?", [flat])
            let left = try #require(try await iterator.next())
            #expect(kinds([left]) == ["MEMBER_LEFT"])
            #expect(left.data?["householdEvents"]?["memberId"] == .string(benInFlat))
            #expect(left.data?["householdEvents"]?["incompleteTasks"] == "REDISTRIBUTE")
            // No longer a member: the household is out of reach, and that is not an error.
            #expect(left.data?["householdEvents"]?["household"] == .null)
            #expect(left.errors.isEmpty)
            #expect(fixture.bus.subscriberCount == 0)
            #expect(try await remaining(&iterator).isEmpty)
        }
    }

    /// The departure that would end the stream can itself be among the events dropped for a
    /// subscriber who fell behind: what follows it must still never reach them.
    @Test func aFormerMemberWhoseDepartureWasDroppedReceivesNothingMore() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let ben = try await fixture.person("ben")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let benInFlat = try await fixture.join(flat, ben, as: "Ben")
            let stream = try await fixture.events(Self.query, flat, as: ben)
            try await fixture.depart(.memberRemoved, flat, memberID: benInFlat, of: ben)
            // Ben's device reads nothing while more changes than his buffer holds are committed.
            let at = fixture.harness.clock.now
            let later = try (0...HearthSchema.subscriptionBufferSize).map { index in
                Event(
                    sequence: Int64(10_000 + index), topic: .household(flat), kind: .householdUpdated,
                    payload: try EventPayload(HouseholdChange(householdID: flat)), committedAt: at)
            }
            fixture.bus.publish(later)

            var iterator = stream.makeAsyncIterator()
            let next = try await iterator.next()
            #expect(next == nil, "delivered to a former member: \(next.map { kinds([$0]) } ?? [])")
            #expect(fixture.bus.subscriberCount == 0)
        }
    }

    @Test func theStreamEndsAfterTheHouseholdIsDeleted() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let stream = try await fixture.events(Self.query, flat, as: ana)
            try await fixture.commit(.householdDeleted, HouseholdChange(householdID: flat), "DELETE FROM households WHERE id = ?", [flat])

            var iterator = stream.makeAsyncIterator()
            let deleted = try #require(try await iterator.next())
            #expect(kinds([deleted]) == ["HOUSEHOLD_DELETED"])
            #expect(deleted.data?["householdEvents"]?["household"] == .null)
            #expect(deleted.errors.isEmpty)
            #expect(fixture.bus.subscriberCount == 0)
            #expect(try await remaining(&iterator).isEmpty)
        }
    }

    /// The subscribe-time membership check runs for the first member of a shared subscription only, so
    /// sharing must never cross users; the end-to-end tests subscribe a non-member with the very request
    /// of a member's running subscription.
    @Test func subscriptionsAreSharedAmongOneUsersConnectionsOnly() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let accounts = fixture.harness.accounts
            let anaPhone = try await fixture.person("ana")
            let anaLaptop = try await accounts.service.authenticate(accessToken: try await accounts.login("ana").accessToken)
            let ben = try await fixture.person("ben")
            let authentication = WebSocketAuthentication(authenticator: Authenticator(accounts: accounts.service), logger: .disabled)
            func scope(_ viewer: Viewer) -> String {
                authentication.sharingScope(RequestContext(authentication: .signedIn(viewer), clientAddress: "127.0.0.1"))
            }
            #expect(anaPhone.sessionID != anaLaptop.sessionID)
            #expect(scope(anaPhone) == scope(anaLaptop))
            #expect(scope(anaPhone) != scope(ben))
            #expect(scope(ben) != authentication.sharingScope(RequestContext(authentication: .signedOut, clientAddress: "127.0.0.1")))
        }
    }

    @Test func cancellingTheConsumerReleasesTheBusSubscriber() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let stream = try await fixture.events(Self.query, flat, as: ana)
            #expect(fixture.bus.subscriberCount == 1)
            let consumer = Task {
                for try await _ in stream {}
            }
            consumer.cancel()
            try await consumer.value
            #expect(fixture.bus.subscriberCount == 0)
        }
    }
}
