import Foundation
import GraphQL
import Testing

/// The README's following tour runs as written: every `TOKEN=$WHO gql '…'` request of "API tour:
/// following" is sent in order to a real server as Ana or Ben, with `<habit.id>` (Ben's) and
/// `<follow.id>` (the request made) filled in, and must answer without errors; the feed shows
/// Ben's run while Ana follows him and nothing after he removed her.
@Suite struct ReadmeFollowingTourTests {
    @Test func theFollowingToursRequestsRunInOrderWithoutErrors() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana"), ben = try server.person("ben")
        var values = ["<habit.id>": try server.habit("Run", as: ben)]
        let requests = try ReadmeChoresTourTests.tourRequests("#### API tour: following", block: "```sh\nTOKEN=$")
        #expect(requests.map { $0.prefix(3) } == ["ANA", "BEN", "BEN", "BEN", "ANA", "ANA", "BEN", "ANA"])
        var feeds: [Int] = []
        for (who, request) in requests.map({ ($0.prefix(3), String($0.dropFirst("ANA gql '".count))) }) {
            let data = try ReadmeChoresTourTests.send(request, values: values, as: who == "ANA" ? ana : ben, on: server)
            if values["<follow.id>"] == nil, let follow = data["requestFollow"]?["follow"]?["id"]?.stringValue { values["<follow.id>"] = follow }
            if case .array(let edges)? = data["followingFeed"]?["edges"] { feeds.append(edges.count) }
        }
        #expect(feeds == [1, 0])
    }
}
