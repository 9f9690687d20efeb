import Foundation
import GraphQL
import Testing

/// The README's sharing tour runs as written: every `TOKEN=$WHO gql '…'` request of "API tour:
/// sharing" is sent in order to a real server as Ana or Ben, with `<chore.id>`, `<tag.id>`,
/// `<household.id>` (Ana's) and `<share.id>` (the first share made) filled in, and must answer
/// without errors; afterwards Ben no longer sees anything of Ana's.
@Suite struct ReadmeSharingTourTests {
    @Test func theSharingToursRequestsRunInOrderWithoutErrors() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        let (householdID, _) = try server.createHousehold("City Flat", as: ana)
        let tagID = try server.tag("Fitness", in: nil, as: ana)
        let choreID = try #require(try server.chore("Run 5 km", in: nil, as: ana, ["tagIds": [.string(tagID)]])["id"]?.stringValue)
        var values = ["<household.id>": householdID, "<tag.id>": tagID, "<chore.id>": choreID]
        let requests = try ReadmeChoresTourTests.tourRequests("#### API tour: sharing", block: "```sh\nTOKEN=$")
        #expect(requests.map { $0.prefix(3) } == ["ANA", "BEN", "BEN", "BEN", "BEN", "ANA", "ANA"])
        for (who, request) in requests.map({ ($0.prefix(3), String($0.dropFirst("ANA gql '".count))) }) {
            let data = try ReadmeChoresTourTests.send(request, values: values, as: who == "ANA" ? ana : ben, on: server)
            if values["<share.id>"] == nil, let share = data["shareChores"]?["share"]?["id"]?.stringValue { values["<share.id>"] = share }
        }
        #expect(try server.sharedTitles(as: ben).isEmpty && server.choreNode(choreID, as: ben) == nil)
    }
}
