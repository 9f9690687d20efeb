import Foundation
import GraphQL
import Testing

/// FR-07 through the binary: a confirmed user creates a household and reads it back.
@Suite struct HouseholdCreationTests {
    @Test func FR07_creatingAHouseholdMakesTheCreatorItsAdminAndItBecomesActive() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana", acceptingTerms: false)
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
}
