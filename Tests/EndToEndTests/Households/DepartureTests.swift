import Foundation
import GraphQL
import Testing

/// History survives departures (issue 13) through the binary: a member who leaves keeps one
/// record, departed, that rejoining revives; the members list and the member limit ignore
/// departed members; a removed child is anonymised in the database.
@Suite struct DepartureTests {
    static let members = """
        query($id: ID!, $departed: Boolean) {
          household(id: $id) {
            members(includeDeparted: $departed) { totalCount edges { node { id status displayName departedAt user { id } } } }
          }
        }
        """
    static let remove = "mutation($input: RemoveMemberInput!) { removeMember(input: $input) { removedMemberId } }"
    static let leave = "mutation($input: LeaveHouseholdInput!) { leaveHousehold(input: $input) { leftHouseholdId } }"

    @Test func leavingAndRejoiningKeepsOneMemberRecordAndTheListAndLimitIgnoreDepartedMembers() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--max-members-per-household", "2"])
        defer { server.remove() }
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        let (flat, _) = try server.createHousehold("Flat", as: ana)
        let benMember = try server.join(ben, flat, invitedBy: ana)
        let full = try server.graphQL(
            "mutation($input: InviteMemberInput!) { inviteMember(input: $input) { inviteToken } }",
            variables: ServerProcess.input(["householdId": .string(flat), "email": "cleo@example.com"]), token: ana.token)
        #expect(full.errorCode == "CONFLICT", "at the limit of 2: \(full.json)")

        let left = try server.graphQL(
            Self.leave, variables: ServerProcess.input(["householdId": .string(flat), "incompleteTasks": "UNASSIGN"]), token: ben.token)
        #expect(left.data?["leaveHousehold"]?["leftHouseholdId"] == .string(flat), "\(left.json)")
        #expect(try server.databaseText("SELECT status FROM members WHERE id = '\(benMember)'") == "departed")
        let listed = try server.graphQL(Self.members, variables: ["id": .string(flat)], token: ana.token)
        #expect(listed.data?["household"]?["members"]?["totalCount"] == 1, "\(listed.json)")
        let history = try server.graphQL(Self.members, variables: ["id": .string(flat), "departed": true], token: ana.token)
        guard case .array(let edges)? = history.data?["household"]?["members"]?["edges"] else {
            Issue.record("no members: \(history.json)")
            return
        }
        #expect(history.data?["household"]?["members"]?["totalCount"] == 2, "\(history.json)")
        let departed = edges.compactMap { $0["node"] }.first { $0["id"] == JSON.string(benMember) }
        #expect(departed?["status"] == "DEPARTED" && departed?["displayName"] == "ben" && departed?["user"] == JSON.null, "\(history.json)")
        #expect(departed?["departedAt"]?.stringValue?.hasSuffix("Z") == true, "\(history.json)")

        // Back with the same record: the invitation fits under the limit, the departed member does not count.
        let rejoined = try server.join(ben, flat, invitedBy: ana)
        #expect(rejoined == benMember)
        #expect(try server.databaseText(
            "SELECT count(*) || ' ' || min(status) || ' ' || (min(departed_at) IS NULL) FROM members WHERE household_id = '\(flat)' AND user_id = '\(ben.userID)'")
            == "1 active 1")
        let after = try server.graphQL(Self.members, variables: ["id": .string(flat)], token: ana.token)
        #expect(after.data?["household"]?["members"]?["totalCount"] == 2, "\(after.json)")
    }

    @Test func aRemovedChildIsAnonymisedInTheDatabase() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (flat, _) = try server.createHousehold("Flat", as: ana)
        let consent = try ChildrenAndEconomyTests.consent(server, flat, as: ana)
        let added = try server.graphQL(ChildrenAndEconomyTests.addMember, variables: ServerProcess.input([
            "householdId": .string(flat), "kind": "CHILD", "displayName": "Wilhelmina Quartz", "age": 8, "consentId": .string(consent),
        ]), token: ana.token)
        let child = try #require(added.data?["addMember"]?["member"]?["id"]?.stringValue, "\(added.json)")

        let removed = try server.graphQL(
            Self.remove, variables: ServerProcess.input(["memberId": .string(child), "incompleteTasks": "UNASSIGN"]), token: ana.token)
        #expect(removed.data?["removeMember"]?["removedMemberId"] == .string(child), "\(removed.json)")
        let row = try server.databaseText("""
            SELECT status || '|' || display_name || '|' || coalesce(CAST(age AS TEXT), 'null') || '|' || coalesce(user_id, 'null')
                || '|' || (departed_at IS NOT NULL) || '|' || consent_id
            FROM members WHERE id = '\(child)'
            """)
        #expect(row == "departed|Former member|null|null|1|\(consent)")
        #expect(try server.databaseFilesContaining(Array("Wilhelmina".utf8)).isEmpty, "the name left the database files too")
        let seen = try server.graphQL(
            "query($id: ID!) { node(id: $id) { ... on Member { status displayName age departedAt } } }",
            variables: ["id": .string(child)], token: ana.token)
        #expect(seen.data?["node"]?["status"] == "DEPARTED" && seen.data?["node"]?["displayName"] == "Former member", "\(seen.json)")
        #expect(seen.data?["node"]?["age"] == .null, "\(seen.json)")
    }
}
