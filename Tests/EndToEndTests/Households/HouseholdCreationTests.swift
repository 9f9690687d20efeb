import Foundation
import GraphQL
import Testing

/// FR-07 through the binary: a confirmed user creates a household and reads it back.
@Suite struct HouseholdCreationTests {
    @Test func FR07_creatingAHouseholdMakesTheCreatorItsAdminAndItBecomesActive() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, memberID) = try server.createHousehold("  City Flat  ", as: ana)
        let read = try server.graphQL(
            """
            { activeHousehold { id name timeZone isActive viewerMember { id role kind status isViewer household { id } } }
              households { id } }
            """, token: ana.token)
        let household = try #require(read.data?["activeHousehold"], "\(read.json)")
        #expect(household["id"]?.stringValue == householdID)
        #expect(household["name"] == "City Flat")
        #expect(household["timeZone"] == "UTC")
        #expect(household["isActive"] == true)
        #expect(household["viewerMember"]?["id"]?.stringValue == memberID)
        #expect(household["viewerMember"]?["role"] == "ADMIN")
        #expect(household["viewerMember"]?["kind"] == "PARENT")
        #expect(household["viewerMember"]?["household"]?["id"]?.stringValue == householdID)
        #expect(read.data?["households"]?[0]?["id"]?.stringValue == householdID)
    }

    @Test func FR07_anUnconfirmedAddressGetsEmailNotConfirmedAndBadInputIsReportedPerField() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--max-households-per-user", "1"])
        defer { server.remove() }
        let registered = try server.graphQL(
            "mutation($input: RegisterInput!) { register(input: $input) { tokens { accessToken } } }",
            variables: ["input": ["username": "dan", "email": "dan@example.com", "password": "correct horse battery"]])
        let danToken = try #require(registered.data?["register"]?["tokens"]?["accessToken"]?.stringValue)
        let create = "mutation($input: CreateHouseholdInput!) { createHousehold(input: $input) { household { id } } }"
        let unconfirmed = try server.graphQL(create, variables: ["input": ["name": "Home"]], token: danToken)
        #expect(unconfirmed.errorCode == "EMAIL_NOT_CONFIRMED", "\(unconfirmed.json)")

        let ana = try server.person("ana")
        let invalid = try server.graphQL(create, variables: ["input": ["name": .string(String(repeating: "x", count: 81)), "emoji": "ab"]], token: ana.token)
        #expect(invalid.errorCode == "BAD_USER_INPUT")
        #expect(invalid.errorExtensions?["fieldErrors"]?[0]?["field"] == "input.name")
        #expect(invalid.errorExtensions?["fieldErrors"]?[1]?["field"] == "input.emoji")
        let badZone = try server.graphQL(create, variables: ["input": ["name": "Home", "timeZone": "Mars/Olympus"]], token: ana.token)
        #expect(badZone.errorCode == "BAD_USER_INPUT", "\(badZone.json)")

        _ = try server.createHousehold("Home", as: ana)
        let overLimit = try server.graphQL(create, variables: ["input": ["name": "Second"]], token: ana.token)
        #expect(overLimit.errorCode == "CONFLICT", "\(overLimit.json)")
        let signedOut = try server.graphQL(create, variables: ["input": ["name": "Home"]])
        #expect(signedOut.errorCode == "UNAUTHENTICATED")
    }

    @Test func FR07_aReplayedClientMutationIdReturnsTheSameHousehold() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let create = """
            mutation($input: CreateHouseholdInput!) { createHousehold(input: $input) { household { id name } clientMutationId } }
            """
        let first = try server.graphQL(create, variables: ["input": ["name": "Home", "clientMutationId": "queue-7"]], token: ana.token)
        let replay = try server.graphQL(create, variables: ["input": ["name": "Home", "clientMutationId": "queue-7"]], token: ana.token)
        #expect(first.data?["createHousehold"]?["household"]?["id"] != nil)
        #expect(replay.data?["createHousehold"] == first.data?["createHousehold"], "\(replay.json)")
        #expect(replay.data?["createHousehold"]?["clientMutationId"] == "queue-7")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM households") == "1")
    }
}
