import Foundation
import GraphQL
import Testing

/// FR-08 – FR-11 and FR-14 – FR-17 through the binary: editing and deleting households, the
/// active and the viewed household, roles, removal and leaving, with their error paths.
///
/// Second members join as people do: invited by an admin, they accept (`join`).
@Suite struct MembershipTests {
    static let update = "mutation($input: UpdateHouseholdInput!) { updateHousehold(input: $input) { household { id name emoji locationLabel timeZone } clientMutationId } }"
    static let delete = "mutation($input: DeleteHouseholdInput!) { deleteHousehold(input: $input) { deletedHouseholdId activeHousehold { id isActive } clientMutationId } }"
    static let setActive = """
        mutation($input: SetActiveHouseholdInput!) {
          setActiveHousehold(input: $input) { household { id isActive } previousHousehold { id isActive } clientMutationId } }
        """
    static let changeRole = "mutation($input: ChangeMemberRoleInput!) { changeMemberRole(input: $input) { member { id role } clientMutationId } }"
    static let remove = "mutation($input: RemoveMemberInput!) { removeMember(input: $input) { removedMemberId household { id members { totalCount } } clientMutationId } }"
    static let leave = "mutation($input: LeaveHouseholdInput!) { leaveHousehold(input: $input) { leftHouseholdId activeHousehold { id isActive } clientMutationId } }"

    /// `["input": fields]`.

    // MARK: - FR-08

    @Test func FR08_anAdminEditsTheHouseholdAndAbsentFieldsStayWhileNullClearsThem() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (flat, _) = try server.createHousehold("Flat", as: ana)
        let edited = try server.graphQL(Self.update, variables: ServerProcess.input([
            "householdId": .string(flat), "name": " City Flat ", "emoji": "🏠", "locationLabel": "Lisbon", "timeZone": "Europe/Lisbon",
            "clientMutationId": "edit-1",
        ]), token: ana.token)
        #expect(edited.data?["updateHousehold"] == [
            "household": ["id": .string(flat), "name": "City Flat", "emoji": "🏠", "locationLabel": "Lisbon", "timeZone": "Europe/Lisbon"],
            "clientMutationId": "edit-1",
        ], "\(edited.json)")
        let cleared = try server.graphQL(
            Self.update, variables: ServerProcess.input(["householdId": .string(flat), "locationLabel": nil]), token: ana.token)
        #expect(cleared.data?["updateHousehold"]?["household"] == [
            "id": .string(flat), "name": "City Flat", "emoji": "🏠", "locationLabel": nil, "timeZone": "Europe/Lisbon",
        ], "\(cleared.json)")
        let invalid = try server.graphQL(
            Self.update, variables: ServerProcess.input(["householdId": .string(flat), "name": "   ", "timeZone": nil]), token: ana.token)
        #expect(invalid.errorCode == "BAD_USER_INPUT", "\(invalid.json)")
        #expect(invalid.errorExtensions?["fieldErrors"]?[0]?["field"] == "input.name")
        #expect(invalid.errorExtensions?["fieldErrors"]?[1]?["field"] == "input.timeZone")
    }

    @Test func FR08_membersAreForbiddenAndOthersCannotTellTheHouseholdExists() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        let cara = try server.person("cara")
        let (flat, _) = try server.createHousehold("Flat", as: ana)
        try server.join(ben, flat, invitedBy: ana)
        let member = try server.graphQL(Self.update, variables: ServerProcess.input(["householdId": .string(flat), "name": "Ben's"]), token: ben.token)
        #expect(member.errorCode == "FORBIDDEN", "\(member.json)")
        let outsider = try server.graphQL(Self.update, variables: ServerProcess.input(["householdId": .string(flat), "name": "Cara's"]), token: cara.token)
        let unknown = try server.graphQL(
            Self.update, variables: ServerProcess.input(["householdId": "01900000-0000-7000-8000-000000000000", "name": "Cara's"]), token: cara.token)
        #expect(outsider.errorCode == "NOT_FOUND" && outsider.json["errors"] == unknown.json["errors"], "\(outsider.json)")
        #expect(try server.databaseText("SELECT name FROM households WHERE id = '\(flat)'") == "Flat")
    }

    // MARK: - FR-09

    @Test func FR09_deletingNeedsAnAdminAndTheExactNameAndRemovesEverythingTheHouseholdOwns() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        let (flat, _) = try server.createHousehold("City Flat", as: ana)
        let (cabin, _) = try server.createHousehold("Cabin", as: ana)
        try server.join(ben, flat, invitedBy: ana)
        let mismatch = try server.graphQL(Self.delete, variables: ServerProcess.input(["householdId": .string(flat), "confirmName": "city flat"]), token: ana.token)
        #expect(mismatch.errorCode == "BAD_USER_INPUT" && mismatch.errorReason == "MISMATCH", "\(mismatch.json)")
        #expect(mismatch.errorExtensions?["field"] == "input.confirmName")
        let member = try server.graphQL(Self.delete, variables: ServerProcess.input(["householdId": .string(flat), "confirmName": "City Flat"]), token: ben.token)
        #expect(member.errorCode == "FORBIDDEN", "\(member.json)")

        let deleted = try server.graphQL(
            Self.delete, variables: ServerProcess.input(["householdId": .string(flat), "confirmName": "City Flat", "clientMutationId": "del-1"]),
            token: ana.token)
        #expect(deleted.data?["deleteHousehold"] == [
            "deletedHouseholdId": .string(flat), "activeHousehold": ["id": .string(cabin), "isActive": true], "clientMutationId": "del-1",
        ], "\(deleted.json)")
        let replay = try server.graphQL(
            Self.delete, variables: ServerProcess.input(["householdId": .string(flat), "confirmName": "City Flat", "clientMutationId": "del-1"]),
            token: ana.token)
        #expect(replay.data == deleted.data, "\(replay.json)")

        let benView = try server.graphQL("{ households { id } activeHousehold { id } }", token: ben.token)
        #expect(benView.data == ["households": [], "activeHousehold": nil], "\(benView.json)")
        let gone = try server.graphQL("query($id: ID!) { household(id: $id) { id } }", variables: ["id": .string(flat)], token: ben.token)
        #expect(gone.errorCode == "NOT_FOUND")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM members WHERE household_id = '\(flat)'") == "0")
        #expect(try server.databaseText("SELECT kind FROM change_log WHERE topic = 'household:\(flat)' ORDER BY sequence DESC LIMIT 1")
            == "household.deleted")
    }

    // MARK: - FR-10, FR-11, FR-17

    @Test func FR10_viewingAnotherHouseholdDoesNotChangeTheActiveOne() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (home, _) = try server.createHousehold("Home", as: ana)
        let (cabin, _) = try server.createHousehold("Cabin", as: ana)
        let viewed = try server.graphQL(
            "query($id: ID!) { household(id: $id) { id name isActive members { totalCount } } }", variables: ["id": .string(cabin)], token: ana.token)
        #expect(viewed.data?["household"] == ["id": .string(cabin), "name": "Cabin", "isActive": false, "members": ["totalCount": 1]], "\(viewed.json)")
        let active = try server.graphQL("{ activeHousehold { id isActive } households { id isActive } }", token: ana.token)
        #expect(active.data == [
            "activeHousehold": ["id": .string(home), "isActive": true],
            "households": [["id": .string(home), "isActive": true], ["id": .string(cabin), "isActive": false]],
        ], "\(active.json)")
    }

    @Test func FR11_switchingTheActiveHouseholdReturnsThePreviousOneAndOnlyMembersMaySwitch() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let cara = try server.person("cara")
        let (home, _) = try server.createHousehold("Home", as: ana)
        let (cabin, _) = try server.createHousehold("Cabin", as: ana)
        let switched = try server.graphQL(
            Self.setActive, variables: ServerProcess.input(["householdId": .string(cabin), "clientMutationId": "sw-1"]), token: ana.token)
        #expect(switched.data?["setActiveHousehold"] == [
            "household": ["id": .string(cabin), "isActive": true], "previousHousehold": ["id": .string(home), "isActive": false],
            "clientMutationId": "sw-1",
        ], "\(switched.json)")
        let active = try server.graphQL("{ activeHousehold { id } }", token: ana.token)
        #expect(active.data?["activeHousehold"]?["id"]?.stringValue == cabin)
        let outsider = try server.graphQL(Self.setActive, variables: ServerProcess.input(["householdId": .string(home)]), token: cara.token)
        #expect(outsider.errorCode == "NOT_FOUND", "\(outsider.json)")
        let none = try server.graphQL("{ activeHousehold { id } }", token: cara.token)
        #expect(none.data == ["activeHousehold": nil], "\(none.json)")
        let reused = try server.graphQL(
            Self.update, variables: ServerProcess.input(["householdId": .string(home), "name": "Reused", "clientMutationId": "sw-1"]), token: ana.token)
        #expect(reused.errorCode == "CONFLICT" && reused.errorReason == "CLIENT_MUTATION_ID_REUSED", "\(reused.json)")
    }

    @Test func FR17_exactlyOneHouseholdIsActiveThroughSwitchesAndDepartures() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        let ids = try ["A", "B", "C"].map { try server.createHousehold($0, as: ana).householdID }
        let (benHome, _) = try server.createHousehold("Ben's", as: ben)
        try server.join(ben, ids[0], invitedBy: ana)
        // The person's households with exactly one active (none without any), the database agreeing.
        func expectOneActive(_ person: ServerProcess.Person, is expected: String?) throws {
            let read = try server.graphQL("{ activeHousehold { id } households { id isActive } }", token: person.token)
            let households = try #require(read.data?["households"], "\(read.json)")
            guard case .array(let items) = households else { Issue.record("\(read.json)"); return }
            #expect(items.filter { $0["isActive"] == true }.count == (expected == nil ? 0 : 1), "\(read.json)")
            #expect(read.data?["activeHousehold"]?["id"]?.stringValue == expected, "\(read.json)")
            #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM active_households WHERE user_id = '\(person.userID)'")
                == (expected == nil ? "0" : "1"))
        }
        try expectOneActive(ana, is: ids[0])
        for id in [ids[2], ids[1], ids[1], ids[0]] {
            _ = try server.graphQL(Self.setActive, variables: ServerProcess.input(["householdId": .string(id)]), token: ana.token)
            try expectOneActive(ana, is: id)
        }
        _ = try server.graphQL(Self.setActive, variables: ServerProcess.input(["householdId": .string(ids[0])]), token: ben.token)
        try expectOneActive(ben, is: ids[0])
        let left = try server.graphQL(Self.leave, variables: ServerProcess.input(["householdId": .string(ids[0]), "incompleteTasks": "UNASSIGN"]), token: ben.token)
        #expect(left.data?["leaveHousehold"]?["activeHousehold"] == ["id": .string(benHome), "isActive": true], "\(left.json)")
        try expectOneActive(ben, is: benHome)
        _ = try server.graphQL(Self.delete, variables: ServerProcess.input(["householdId": .string(ids[0]), "confirmName": "A"]), token: ana.token)
        try expectOneActive(ana, is: ids[2])
        _ = try server.graphQL(Self.delete, variables: ServerProcess.input(["householdId": .string(benHome), "confirmName": "Ben's"]), token: ben.token)
        try expectOneActive(ben, is: nil)
    }

    // MARK: - FR-14

    @Test func FR14_anAdminRemovesAMemberWithTheChoiceForTheirTasks() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        let cara = try server.person("cara")
        let (flat, anaMember) = try server.createHousehold("Flat", as: ana)
        let (_, caraMember) = try server.createHousehold("Cara's", as: cara)
        let benMember = try server.join(ben, flat, invitedBy: ana)

        let byMember = try server.graphQL(Self.remove, variables: ServerProcess.input(["memberId": .string(anaMember), "incompleteTasks": "UNASSIGN"]), token: ben.token)
        #expect(byMember.errorCode == "FORBIDDEN", "\(byMember.json)")
        let byOutsider = try server.graphQL(Self.remove, variables: ServerProcess.input(["memberId": .string(benMember), "incompleteTasks": "UNASSIGN"]), token: cara.token)
        #expect(byOutsider.errorCode == "NOT_FOUND", "\(byOutsider.json)")
        let otherHousehold = try server.graphQL(
            Self.remove, variables: ServerProcess.input(["memberId": .string(caraMember), "incompleteTasks": "UNASSIGN"]), token: ana.token)
        #expect(otherHousehold.errorCode == "NOT_FOUND", "\(otherHousehold.json)")
        let yourself = try server.graphQL(Self.remove, variables: ServerProcess.input(["memberId": .string(anaMember), "incompleteTasks": "UNASSIGN"]), token: ana.token)
        #expect(yourself.errorCode == "BAD_USER_INPUT" && yourself.errorExtensions?["field"] == "input.memberId", "\(yourself.json)")

        let removed = try server.graphQL(
            Self.remove, variables: ServerProcess.input(["memberId": .string(benMember), "incompleteTasks": "REDISTRIBUTE", "clientMutationId": "rm-1"]),
            token: ana.token)
        #expect(removed.data?["removeMember"] == [
            "removedMemberId": .string(benMember), "household": ["id": .string(flat), "members": ["totalCount": 1]], "clientMutationId": "rm-1",
        ], "\(removed.json)")
        #expect(try server.databaseText("SELECT reason || ' ' || task_handling FROM member_departures WHERE member_id = '\(benMember)'")
            == "removed redistribute")
        let removal = try JSON(parsing: try #require(try server.databaseText("SELECT payload FROM change_log WHERE kind = 'member.removed'")))
        #expect(removal["incompleteTasks"] == "redistribute")
        let benView = try server.graphQL("query($id: ID!) { household(id: $id) { id } }", variables: ["id": .string(flat)], token: ben.token)
        #expect(benView.errorCode == "NOT_FOUND", "\(benView.json)")
    }

    // MARK: - FR-15

    @Test func FR15_theLastAdminPromotesSomeoneFirstAndTheLastMemberDeletesInstead() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        let (flat, _) = try server.createHousehold("Flat", as: ana)
        let benMember = try server.join(ben, flat, invitedBy: ana)
        let leaveFlat = ServerProcess.input(["householdId": .string(flat), "incompleteTasks": "UNASSIGN"])

        let lastAdmin = try server.graphQL(Self.leave, variables: leaveFlat, token: ana.token)
        #expect(lastAdmin.errorCode == "CONFLICT" && lastAdmin.errorReason == "LAST_ADMIN", "\(lastAdmin.json)")
        _ = try server.graphQL(Self.changeRole, variables: ServerProcess.input(["memberId": .string(benMember), "role": "ADMIN"]), token: ana.token)
        let left = try server.graphQL(Self.leave, variables: leaveFlat, token: ana.token)
        #expect(left.data?["leaveHousehold"] == ["leftHouseholdId": .string(flat), "activeHousehold": nil, "clientMutationId": nil], "\(left.json)")
        #expect(try server.databaseText("SELECT reason || ' ' || task_handling FROM member_departures WHERE user_id = '\(ana.userID)'")
            == "left unassign")

        let lastMember = try server.graphQL(Self.leave, variables: leaveFlat, token: ben.token)
        #expect(lastMember.errorCode == "CONFLICT" && lastMember.errorReason == nil, "\(lastMember.json)")
        let outsider = try server.graphQL(Self.leave, variables: leaveFlat, token: ana.token)
        #expect(outsider.errorCode == "NOT_FOUND", "\(outsider.json)")
    }

    // MARK: - FR-16

    @Test func FR16_anAdminChangesRolesButTheHouseholdKeepsAnAdmin() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        let (flat, anaMember) = try server.createHousehold("Flat", as: ana)
        let benMember = try server.join(ben, flat, invitedBy: ana)
        let rename = ServerProcess.input(["householdId": .string(flat), "name": "Ben's flat"])

        let demoteLast = try server.graphQL(Self.changeRole, variables: ServerProcess.input(["memberId": .string(anaMember), "role": "MEMBER"]), token: ana.token)
        #expect(demoteLast.errorCode == "CONFLICT" && demoteLast.errorReason == "LAST_ADMIN", "\(demoteLast.json)")
        let byMember = try server.graphQL(Self.changeRole, variables: ServerProcess.input(["memberId": .string(benMember), "role": "ADMIN"]), token: ben.token)
        #expect(byMember.errorCode == "FORBIDDEN", "\(byMember.json)")
        #expect(try server.graphQL(Self.update, variables: rename, token: ben.token).errorCode == "FORBIDDEN")

        let promoted = try server.graphQL(
            Self.changeRole, variables: ServerProcess.input(["memberId": .string(benMember), "role": "ADMIN", "clientMutationId": "role-1"]), token: ana.token)
        #expect(promoted.data?["changeMemberRole"] == ["member": ["id": .string(benMember), "role": "ADMIN"], "clientMutationId": "role-1"],
                "\(promoted.json)")
        #expect(try server.graphQL(Self.update, variables: rename, token: ben.token).errorCode == nil)
        let demoted = try server.graphQL(Self.changeRole, variables: ServerProcess.input(["memberId": .string(anaMember), "role": "MEMBER"]), token: ana.token)
        #expect(demoted.data?["changeMemberRole"]?["member"]?["role"] == "MEMBER", "\(demoted.json)")
        #expect(try server.graphQL(Self.update, variables: rename, token: ana.token).errorCode == "FORBIDDEN")
    }

    @Test func FR16_theMembersListShowsAdminsFirstInPagesWithEachMembersAccount() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        let cara = try server.person("cara")
        let (flat, anaMember) = try server.createHousehold("Flat", as: ana)
        let benMember = try server.join(ben, flat, invitedBy: ana)
        let caraMember = try server.join(cara, flat, role: "ADMIN", invitedBy: ana)
        let page = """
            query($id: ID!, $after: String) { household(id: $id) { members(first: 2, after: $after) {
              totalCount pageInfo { hasNextPage hasPreviousPage endCursor }
              edges { node { id role isViewer user { id email } } } } } }
            """
        let first = try server.graphQL(page, variables: ["id": .string(flat)], token: ben.token)
        let members = try #require(first.data?["household"]?["members"], "\(first.json)")
        #expect(members["totalCount"] == 3)
        #expect(members["edges"] == [
            ["node": ["id": .string(anaMember), "role": "ADMIN", "isViewer": false, "user": ["id": .string(ana.userID), "email": nil]]],
            ["node": ["id": .string(caraMember), "role": "ADMIN", "isViewer": false, "user": ["id": .string(cara.userID), "email": nil]]],
        ], "\(first.json)")
        #expect(members["pageInfo"]?["hasNextPage"] == true && members["pageInfo"]?["hasPreviousPage"] == false)
        let cursor = try #require(members["pageInfo"]?["endCursor"])
        let second = try server.graphQL(page, variables: ["id": .string(flat), "after": cursor], token: ben.token)
        #expect(second.data?["household"]?["members"]?["edges"] == [
            ["node": ["id": .string(benMember), "role": "MEMBER", "isViewer": true, "user": ["id": .string(ben.userID), "email": .string(ben.email)]]],
        ], "\(second.json)")
        #expect(second.data?["household"]?["members"]?["pageInfo"]?["hasNextPage"] == false)
        let tooMany = try server.graphQL(
            "query($id: ID!) { household(id: $id) { members(first: 101) { totalCount } } }", variables: ["id": .string(flat)], token: ben.token)
        #expect(tooMany.errorCode == "BAD_USER_INPUT" && tooMany.errorExtensions?["field"] == "first", "\(tooMany.json)")
        let badCursor = try server.graphQL(page, variables: ["id": .string(flat), "after": "not-a-cursor"], token: ben.token)
        #expect(badCursor.errorCode == "BAD_USER_INPUT" && badCursor.errorExtensions?["field"] == "after", "\(badCursor.json)")
    }

    // MARK: - The creator's time zone (FR-07's default)

    @Test func FR07_aNewHouseholdDefaultsToTheTimeZoneOfTheCreatorsProfile() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let profile = "mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { user { timeZone } } }"
        let set = try server.graphQL(profile, variables: ServerProcess.input(["timeZone": "Asia/Tokyo"]), token: ana.token)
        #expect(set.data?["updateProfile"]?["user"]?["timeZone"] == "Asia/Tokyo", "\(set.json)")
        let (tokyo, _) = try server.createHousehold("Tokyo flat", as: ana)
        let read = try server.graphQL("query($id: ID!) { household(id: $id) { timeZone } me { timeZone } }", variables: ["id": .string(tokyo)], token: ana.token)
        #expect(read.data == ["household": ["timeZone": "Asia/Tokyo"], "me": ["timeZone": "Asia/Tokyo"]], "\(read.json)")
        let cleared = try server.graphQL(profile, variables: ServerProcess.input(["timeZone": nil]), token: ana.token)
        #expect(cleared.data?["updateProfile"]?["user"]?["timeZone"] == .null, "\(cleared.json)")
        let (utc, _) = try server.createHousehold("Elsewhere", as: ana)
        let utcRead = try server.graphQL("query($id: ID!) { household(id: $id) { timeZone } }", variables: ["id": .string(utc)], token: ana.token)
        #expect(utcRead.data?["household"]?["timeZone"] == "UTC")
    }
}
