import GraphQL
import HearthDomain
import HearthServices

/// A `Leaderboard` of `schema.graphql`: a household's board as one member sees it (the board is the
/// same for every member; `access` makes its members' `Member` values that member's view).
struct LeaderboardValue: Sendable, FieldResolvable {
    let board: Leaderboard
    let access: HouseholdAccess

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "householdId": board.householdID
        case "period": GraphQLEnum.name(of: board.window.period)
        case "periodStart": board.window.start
        case "periodEnd": board.window.end
        case "timeZone": board.timeZone
        case "firstWeekday": GraphQLEnum.name(of: board.firstWeekday)
        case "entries": board.entries.map { LeaderboardEntryValue(entry: $0, access: access) }
        case "totalCompletions": board.totalCompletions
        case "totalTokens": board.totalTokens
        default: nil
        }
    }
}

/// A `LeaderboardEntry` of `schema.graphql`.
struct LeaderboardEntryValue: Sendable, FieldResolvable {
    let entry: LeaderboardEntry
    let access: HouseholdAccess

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "member": MemberValue(record: entry.member, access: access)
        case "rank": entry.rank
        case "completionCount": entry.completions
        case "tokens": entry.tokens
        case "percentage": entry.percentage
        default: nil
        }
    }
}

/// A `PersonalScoreboard` of `schema.graphql`.
struct PersonalScoreboardValue: Sendable, FieldResolvable {
    let scoreboard: PersonalScoreboard

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "period": GraphQLEnum.name(of: scoreboard.window.period)
        case "periodStart": scoreboard.window.start
        case "periodEnd": scoreboard.window.end
        case "timeZone": scoreboard.timeZone
        case "completionCount": scoreboard.completions
        default: nil
        }
    }
}
