import Foundation
import GraphQL
import TestPython
import Testing

/// Following through the binary (issue 16, US 05), named by user story: a request by username,
/// answered by the followed user; what a follower sees of the other account (never its email);
/// every refusal; the limits at their edges; the live `followEvents` stream.
@Suite struct FollowingTests {
    @Test func US_05_aParticipantAsksToFollowByUsernameAndTheOtherAcceptsSeeingOnlyTheirPublicProfile() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana"), ben = try server.person("ben")
        let requested = try server.requestFollow("BEN", as: ana, clientMutationID: "f1")
        let follow = try #require(requested.data?["requestFollow"]?["follow"], "\(requested.json)")
        let followID = try #require(follow["id"]?.stringValue)
        #expect(followID.hasPrefix("fol_") && follow["status"] == "REQUESTED" && follow["acceptedAt"] == .null)
        #expect(requested.data?["requestFollow"]?["clientMutationId"] == "f1")
        // A replay returns the same request.
        #expect(try server.requestFollow("ben", as: ana, clientMutationID: "f1").data?["requestFollow"]?["follow"]?["id"]?.stringValue == followID)
        #expect(try server.follows("followRequests", as: ben).map { $0["id"] } == [.string(followID)])
        #expect(try server.follows("sentFollowRequests", as: ana).map { $0["id"] } == [.string(followID)])
        #expect(try server.follows("followers", as: ben).isEmpty)

        #expect(try server.answerFollow("acceptFollowRequest", followID, as: ben).errorCode == nil)
        let following = try #require(try server.follows("following", as: ana).first)
        let follower = try #require(try server.follows("followers", as: ben).first)
        #expect(following["status"] == "ACCEPTED" && following["acceptedAt"] != .null)
        // Each sees the other's username and display name, never the email or other "yourself only" fields.
        for (profile, person) in [(following["followed"], ben), (follower["follower"], ana)] {
            #expect(profile?["username"]?.stringValue == person.username && profile?["id"]?.stringValue == person.userID)
            #expect(profile?["displayName"] != .null)
            #expect(profile?["email"] == .null && profile?["isEmailConfirmed"] == .null && profile?["timeZone"] == .null)
        }
        let node = try server.graphQL("query($id: ID!) { node(id: $id) { ... on Follow { id status } } }", variables: ["id": .string(followID)], token: ana.token)
        #expect(node.data?["node"]?["status"] == "ACCEPTED")
        #expect(try server.follows("followRequests", as: ben).isEmpty)
    }

    @Test func US_05_everyRefusalIsClear() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana"), ben = try server.person("ben"), cara = try server.person("cara")
        let unknown = try server.requestFollow("nobody", as: ana)
        #expect(unknown.errorCode == "NOT_FOUND")
        let own = try server.requestFollow("Ana", as: ana)
        #expect(own.errorCode == "BAD_USER_INPUT" && own.errorReason == "NOT_ALLOWED" && own.errorExtensions?["field"] == "input.username")
        let malformed = try server.requestFollow("a b", as: ana)
        #expect(malformed.errorCode == "BAD_USER_INPUT" && malformed.errorReason == "INVALID_FORMAT")
        let id = try #require(try server.requestFollow("ben", as: ana).data?["requestFollow"]?["follow"]?["id"]?.stringValue)
        let again = try server.requestFollow("ben", as: ana)
        #expect(again.errorCode == "CONFLICT" && again.errorReason == "ALREADY_REQUESTED")
        // Only the followed user answers; only the follower unfollows; only accepted followers are removed.
        for (mutation, person) in [
            ("acceptFollowRequest", ana), ("acceptFollowRequest", cara), ("declineFollowRequest", cara), ("unfollow", ben), ("unfollow", cara),
            ("removeFollower", ben),
        ] {
            #expect(try server.answerFollow(mutation, id, as: person).errorCode == "NOT_FOUND", "\(mutation) by \(person.username)")
        }
        let cannotSee = try server.graphQL("query($id: ID!) { node(id: $id) { id } }", variables: ["id": .string(id)], token: cara.token)
        #expect(cannotSee.data?["node"] == .null)
        #expect(try server.answerFollow("acceptFollowRequest", id, as: ben).errorCode == nil)
        #expect(try server.answerFollow("acceptFollowRequest", id, as: ben).errorCode == "NOT_FOUND")
        #expect(try server.answerFollow("declineFollowRequest", id, as: ben).errorCode == "NOT_FOUND")
        let following = try server.requestFollow("ben", as: ana)
        #expect(following.errorCode == "CONFLICT" && following.errorReason == "ALREADY_FOLLOWING")
        let signedOut = try server.graphQL("{ followers { edges { node { id } } } }")
        #expect(signedOut.errorCode == "UNAUTHENTICATED")
    }

    @Test func US_05_decliningUnfollowingAndRemovingEndTheFollowAndANewRequestMayFollow() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana"), ben = try server.person("ben")
        let declined = try #require(try server.requestFollow("ben", as: ana).data?["requestFollow"]?["follow"]?["id"]?.stringValue)
        let answer = try server.graphQL(
            "mutation($input: DeclineFollowRequestInput!) { declineFollowRequest(input: $input) { declinedFollowId } }",
            variables: ServerProcess.input(["followId": .string(declined)]), token: ben.token)
        #expect(answer.data?["declineFollowRequest"]?["declinedFollowId"]?.stringValue == declined)
        #expect(try server.follows("sentFollowRequests", as: ana).isEmpty)
        let withdrawn = try #require(try server.requestFollow("ben", as: ana).data?["requestFollow"]?["follow"]?["id"]?.stringValue)
        #expect(try server.answerFollow("unfollow", withdrawn, as: ana).errorCode == nil)
        #expect(try server.follows("followRequests", as: ben).isEmpty)
        let unfollowed = try server.follow(ben, by: ana)
        #expect(try server.answerFollow("unfollow", unfollowed, as: ana).errorCode == nil)
        #expect(try server.follows("following", as: ana).isEmpty && server.follows("followers", as: ben).isEmpty)
        let removed = try server.follow(ben, by: ana)
        let removal = try server.graphQL(
            "mutation($input: RemoveFollowerInput!) { removeFollower(input: $input) { removedFollowId } }",
            variables: ServerProcess.input(["followId": .string(removed)]), token: ben.token)
        #expect(removal.data?["removeFollower"]?["removedFollowId"]?.stringValue == removed)
        #expect(try server.follows("following", as: ana).isEmpty)
    }

    @Test func US_05_theFollowAndPendingRequestLimitsHoldAtTheirEdges() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--max-follows-per-user", "2", "--max-pending-follow-requests", "1"])
        defer { server.remove() }
        let ana = try server.person("ana"), _ = try server.person("ben"), cara = try server.person("cara"), dan = try server.person("dan")
        let toCara = try #require(try server.requestFollow("cara", as: ana).data?["requestFollow"]?["follow"]?["id"]?.stringValue)
        // One request waiting is the most.
        let pending = try server.requestFollow("dan", as: ana)
        #expect(pending.errorCode == "CONFLICT" && pending.errorReason == "LIMIT_REACHED")
        #expect(try server.answerFollow("acceptFollowRequest", toCara, as: cara).errorCode == nil)
        // Answered, it waits no more; two follows in all are the most.
        let toDan = try #require(try server.requestFollow("dan", as: ana).data?["requestFollow"]?["follow"]?["id"]?.stringValue)
        #expect(try server.answerFollow("acceptFollowRequest", toDan, as: dan).errorCode == nil)
        let third = try server.requestFollow("ben", as: ana)
        #expect(third.errorCode == "CONFLICT" && third.errorReason == "LIMIT_REACHED")
        #expect(try server.answerFollow("unfollow", toDan, as: ana).errorCode == nil)
        #expect(try server.requestFollow("ben", as: ana).errorCode == nil)
    }

    @Test func US_05_followRequestsAreRateLimitedPerUser() throws {
        // 10 an hour: a burst of 1.
        let server = try ServerProcess(ServerProcess.householdArguments + ["--follow-requests-per-hour", "10"])
        defer { server.remove() }
        let ana = try server.person("ana"), _ = try server.person("ben"), cara = try server.person("cara")
        #expect(try server.requestFollow("ben", as: ana).errorCode == nil)
        let limited = try server.requestFollow("cara", as: ana)
        #expect(limited.errorCode == "RATE_LIMITED")
        guard case .int(let retryAfter)? = limited.errorExtensions?["retryAfter"] else {
            Issue.record("no retryAfter in \(limited.json)")
            return
        }
        #expect(retryAfter > 0)
        #expect(try server.requestFollow("ben", as: cara).errorCode == nil)
    }

    @Test func US_05_followEventsTellBothSidesOfEveryChangeLive() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--test-endpoints"])
        defer { server.remove() }
        let ana = try server.person("ana"), ben = try server.person("ben")
        let lines = try TestPython.runScript(ServerProcess.webSocketPeerScript + """
            EVENTS = "subscription { followEvents { kind followId followerId followedId follow { status followed { username email } } } }"
            async def show(who, ws, ana_id, ben_id):
                event = (await message(ws))["payload"]["data"]["followEvents"]
                follow = event["follow"] or {}
                sides = ("ana" if event["followerId"] == ana_id else "?") + ">" + ("ben" if event["followedId"] == ben_id else "?")
                print(who, event["kind"], sides, follow.get("status", "-"), (follow.get("followed") or {}).get("email", "-"))
            async def main(ana, ben, ana_id, ben_id):
                ana_ws = await connected(ana)
                await subscribe_to(ana_ws, "a", EVENTS, {})
                ben_ws = await connected(ben)
                await subscribe_to(ben_ws, "b", EVENTS, {})
                requested = await call("mutation($input: RequestFollowInput!) { requestFollow(input: $input) { follow { id } } }",
                                       {"input": {"username": "ben"}}, ana)
                follow_id = requested["requestFollow"]["follow"]["id"]
                await show("ben", ben_ws, ana_id, ben_id)
                await show("ana", ana_ws, ana_id, ben_id)
                # Each change is shown to both before the next is made: `follow` is read as each event is delivered.
                for mutation in ("AcceptFollowRequest", "RemoveFollower"):
                    name = mutation[0].lower() + mutation[1:]
                    await call(f"mutation($input: {mutation}Input!) {{ {name}(input: $input) {{ clientMutationId }} }}", {"input": {"followId": follow_id}}, ben)
                    await show("ben", ben_ws, ana_id, ben_id)
                    await show("ana", ana_ws, ana_id, ben_id)
            asyncio.run(main(*sys.argv[2:]))
            """, ["http://127.0.0.1:\(server.port)", ana.token, ben.token, ana.userID, ben.userID])
        #expect(lines == [
            "ben REQUESTED ana>ben REQUESTED None", "ana REQUESTED ana>ben REQUESTED None",
            "ben ACCEPTED ana>ben ACCEPTED None", "ana ACCEPTED ana>ben ACCEPTED None",
            "ben REMOVED ana>ben - -", "ana REMOVED ana>ben - -",
        ])
    }
}
