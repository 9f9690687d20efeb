import Foundation
import GraphQL
import Testing

/// The README's chore instances tour runs as written, in order, as the admin of a fresh household:
/// the placeholders (`<household.id>`, `<member.id>`, `<chore.id>`, `<instance.id>`) are filled
/// with what earlier steps produced, and every request answers without errors.
@Suite struct ReadmeInstancesTourTests {
    @Test func theToursRequestsRunInOrderWithoutErrors() throws {
        let requests = try ReadmeChoresTourTests.tourRequests("#### API tour: chore instances")
        #expect(requests.count == 7)
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, memberID) = try server.createHousehold("City Flat", as: ana)
        var values = ["<household.id>": householdID, "<member.id>": memberID]
        var outcomes: [JSON] = []
        for request in requests {
            let data = try ReadmeChoresTourTests.send(request, values: values, as: ana, on: server)
            if let chore = data["createChore"]?["chore"]?["id"]?.stringValue { values["<chore.id>"] = chore }
            if let instance = data["myChores"]?["edges"]?[0]?["node"]?["id"]?.stringValue { values["<instance.id>"] = instance }
            if let outcome = data["completeChore"]?["outcome"] { outcomes.append(outcome) }
        }
        #expect(outcomes == ["STEP_COMPLETED", "COMPLETED", "COMPLETED"])
    }
}
