import Foundation
import GraphQL
import Testing

/// The README's habits tour runs as written: every `TOKEN=$WHO gql '…'` request of "API tour:
/// habits" is sent in order to a real server as Ana or Ben (Ben an accepted follower of Ana's),
/// with `<habit.id>` and `<habitEvent.id>` filled in from the answers, and must answer without
/// errors; afterwards Ana's habit is gone.
@Suite struct ReadmeHabitsTourTests {
    @Test func theHabitsToursRequestsRunInOrderWithoutErrors() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let (ana, ben, _) = try server.habitPeople()
        try server.acceptedFollow(of: ana, by: ben)
        var values: [String: String] = [:]
        let requests = try ReadmeChoresTourTests.tourRequests("#### API tour: habits", block: "```sh\nTOKEN=$")
        #expect(requests.map { $0.prefix(3) } == ["ANA", "ANA", "ANA", "ANA", "BEN", "ANA", "ANA"])
        for (who, request) in requests.map({ ($0.prefix(3), String($0.dropFirst("ANA gql '".count))) }) {
            let data = try ReadmeChoresTourTests.send(request, values: values, as: who == "ANA" ? ana : ben, on: server)
            if let habit = data["createHabit"]?["habit"]?["id"]?.stringValue { values["<habit.id>"] = habit }
            if let event = data["recordHabitEvent"]?["habitEvent"]?["id"]?.stringValue { values["<habitEvent.id>"] = event }
            if let history = data["habitHistory"] { #expect(history["totalCount"] == 1, "the park run is found") }
        }
        #expect(try server.graphQL("{ myHabits { totalCount } }", token: ana.token).data?["myHabits"]?["totalCount"] == 0)
    }
}
