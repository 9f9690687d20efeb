import Foundation
import GraphQL
import HearthHTTP
import Testing

/// Habits, their events, today's list and adherence for end-to-end tests of US 01.07 and US 01.08.
extension ServerProcess {
    /// The arguments habit adherence tests start the server with: the household ones and the test
    /// endpoints (the clock they move).
    static let adherenceArguments = householdArguments + ["--test-endpoints"]

    /// A habit of `person` planned on `plan` (Weekday names) from `startsOn`; its id.
    func habit(_ title: String, plan: [String], startsOn: String, visibility: String? = nil, as person: Person) throws -> String {
        var fields: [String: JSON] = ["startsOn": .string(startsOn), "plan": .array(plan.map { .string($0) })]
        if let visibility { fields["visibility"] = .string(visibility) }
        return try habit(title, as: person, fields)
    }

    /// Records an event of habit `habitID` as `person`, for local day `occurredOn` (today when nil).
    func recordEvent(of habitID: String, on occurredOn: String? = nil, as person: Person) throws {
        _ = try habitEvent(of: habitID, as: person, occurredOn.map { ["occurredOn": .string($0)] } ?? [:])
    }

    /// `person`'s habits to do today as `"<title> <isDoneToday>"`, in order.
    func todayHabits(as person: Person) throws -> [String] {
        let today = try graphQL("{ todayHabits { habit { title } isDoneToday } }", token: person.token)
        guard case .array(let entries)? = today.data?["todayHabits"] else {
            throw Failure(description: "todayHabits answered \(today.json)")
        }
        return entries.map { "\($0["habit"]?["title"]?.stringValue ?? "?") \($0["isDoneToday"] == true)" }
    }

    /// The adherence of habit `habitID` as `person` sees it, with a series of `weeks` weeks.
    func habitAdherence(_ habitID: String, weeks: Int, as person: Person) throws -> GraphQLResponse {
        try graphQL(
            """
            query($id: ID!, $weeks: Int) { habit(id: $id) { sparklineUrl adherence(weeks: $weeks) {
                today isPlannedToday isDoneToday plannedDays keptDays shareSinceStart plannedDaysLast30Days keptDaysLast30Days
                shareLast30Days currentStreak bestStreak
                weeks { startsOn endsOn plannedDays keptDays share unplannedDaysDone } } } }
            """,
            variables: ["id": .string(habitID), "weeks": .int(weeks)], token: person.token)
    }

    /// Sets `person`'s time zone.
    func setTimeZone(_ zone: String, of person: Person) throws {
        let updated = try graphQL(
            "mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { user { timeZone } } }",
            variables: ["input": ["timeZone": .string(zone)]], token: person.token)
        try #require(updated.data?["updateProfile"]?["user"]?["timeZone"]?.stringValue == zone, "\(updated.json)")
    }

    /// `GET path` with `person`'s bearer token (none when nil) and any extra header lines.
    func get(_ path: String, as person: Person?, headers: String = "") throws -> HTTPTestClient.Response {
        try get(path, headers: (person.map { "Authorization: Bearer \($0.token)\r\n" } ?? "") + headers)
    }

    /// Moves the clock to `iso` (`YYYY-MM-DDTHH:MM:SSZ`).
    func moveClock(to iso: String) throws {
        let instant = try #require(ISO8601DateFormatter().date(from: iso), "\(iso) is no instant")
        try moveClock(to: instant)
    }

    /// Moves the clock to `iso` days later and signs `person` in again there: access tokens last at
    /// most a day (`--access-token-ttl`), so one from before the move has expired.
    func moveClock(to iso: String, signingIn person: inout Person) throws {
        try moveClock(to: iso)
        let signedIn = try graphQL(AccountsTests.login, variables: ["input": .object([
            "email": .string(person.email), "password": "correct horse battery",
        ])])
        let token = try #require(signedIn.data?["login"]?["tokens"]?["accessToken"]?.stringValue, "\(signedIn.json)")
        person = Person(username: person.username, userID: person.userID, token: token)
    }
}
