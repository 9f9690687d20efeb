import Foundation
import GraphQL
import Testing

/// Leaderboards and scoreboards through the binary, and the server clock the test endpoints move.
extension ServerProcess {
    /// The fields of a leaderboard the end-to-end tests read.
    static let leaderboardFields = """
        householdId period periodStart periodEnd timeZone firstWeekday totalCompletions totalTokens
        entries { member { id displayName } rank completionCount tokens percentage }
        """

    /// Python helpers for live `leaderboardChanged` tests (the server needs `--test-endpoints`): those of
    /// ``webSocketPeerScript``, this week's board as a subscription (`BOARD`, variable `id`), and one line
    /// per message (`describe_board`: `who total name:rank:completions:tokens …`, or the message's type).
    static let leaderboardScript = webSocketPeerScript + """
        BOARD = ("subscription($id: ID!) { leaderboardChanged(householdId: $id) { "
                 "totalCompletions entries { member { displayName } rank completionCount tokens } } }")
        def describe_board(who, reply):
            if reply["type"] != "next":
                return f"{who} {reply['type']}"
            board = reply["payload"]["data"]["leaderboardChanged"]
            entries = " ".join(f"{e['member']['displayName']}:{e['rank']}:{e['completionCount']}:{e['tokens']}" for e in board["entries"])
            return f"{who} {board['totalCompletions']} {entries}"
        """

    /// `leaderboard(householdId:, period:)` as `person`.
    func leaderboard(_ householdID: String, period: String = "WEEK", as person: Person) throws -> GraphQLResponse {
        try graphQL(
            "query($id: ID!, $period: ScorePeriod) { leaderboard(householdId: $id, period: $period) { \(Self.leaderboardFields) } }",
            variables: ["id": .string(householdID), "period": .string(period)], token: person.token)
    }

    /// The board of `householdID` for `period` as `person` sees it, one line per member:
    /// `name rank completions tokens percentage`.
    func board(_ householdID: String, period: String = "WEEK", as person: Person) throws -> [String] {
        let response = try leaderboard(householdID, period: period, as: person)
        guard case .array(let entries)? = response.data?["leaderboard"]?["entries"] else {
            Issue.record("leaderboard: \(response.json)")
            return []
        }
        return entries.map { entry in
            let fields = [entry["member"]?["displayName"], entry["rank"], entry["completionCount"], entry["tokens"], entry["percentage"]]
            return fields.map { $0.map(Self.text) ?? "?" }.joined(separator: " ")
        }
    }

    /// A scalar's text: a string as it is, a number as written.
    private static func text(_ value: JSON) -> String {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        default: "\(value)"
        }
    }

    /// Moves the server's clock forward to `instant` (`--test-endpoints`); returns what it reads then.
    @discardableResult
    func moveClock(to instant: Date) throws -> Date {
        let answer = try post("/_test/clock", String(instant.timeIntervalSince1970))
        let milliseconds = try #require(Double(answer.text), "the clock answered \(answer.text)")
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }
}
