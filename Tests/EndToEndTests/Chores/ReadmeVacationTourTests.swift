import Foundation
import GraphQL
import Testing

/// The README's vacation mode tour runs as written, in order, as the admin of a fresh household:
/// the placeholders are filled, every request answers without errors, and the chore waits while
/// its only member is away.
@Suite struct ReadmeVacationTourTests {
    @Test func theToursRequestsRunInOrderWithoutErrors() throws {
        let requests = try ReadmeChoresTourTests.tourRequests("#### API tour: vacation mode")
        #expect(requests.count == 4)
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, memberID) = try server.createHousehold("City Flat", as: ana)
        let values = ["<household.id>": householdID, "<member.id>": memberID]
        var answers: [JSON] = []
        for request in requests { answers.append(try ReadmeChoresTourTests.send(request, values: values, as: ana, on: server)) }
        #expect(answers[1]["startVacation"]?["vacations"]?[0]?["status"] == "ACTIVE")
        #expect(answers[2]["myChores"]?["edges"]?[0]?["node"]?["status"] == "PAUSED", "\(answers[2])")
        #expect(answers[3]["endVacation"]?["vacations"]?[0]?["status"] == "ENDED")
    }
}
