import Foundation
import GraphQL
import Testing

/// Reminders' and notifications' operations (issue 18) for the end-to-end tests.
extension ServerProcess {
    /// The fields of a notification the tests read.
    static let notificationFields = """
        id kind title body dueAt householdId choreId choreInstanceId habitId tag deepLink actions createdAt readAt dismissedAt skippedReason
        deliveryOutcome delayReason originalTime
        """

    /// `person`'s notifications, newest first (the first 100).
    func notifications(of person: Person) throws -> [JSON] {
        let answer = try graphQL("{ notifications { edges { node { \(Self.notificationFields) } } } }", token: person.token)
        guard case .array(let edges)? = answer.data?["notifications"]?["edges"] else {
            Issue.record("no notifications in \(answer.json)")
            return []
        }
        return edges.compactMap { $0["node"] }
    }

    /// The `kind body` of each of `person`'s notifications, oldest first, with ` skipped` or ` dismissed` when so.
    func noticeLines(of person: Person) throws -> [String] {
        try notifications(of: person).reversed().map { notice in
            var line = "\(notice["kind"]?.stringValue ?? "?") \(notice["title"]?.stringValue ?? "?"): \(notice["body"]?.stringValue ?? "?")"
            if notice["skippedReason"]?.stringValue != nil { line += " skipped" }
            if notice["dismissedAt"]?.stringValue != nil { line += " dismissed" }
            return line
        }
    }

    /// Calls `updateNotificationPreferences` with `input` as `person`.
    func updateNotificationPreferences(_ input: [String: JSON], as person: Person) throws -> GraphQLResponse {
        try graphQL(
            """
            mutation($input: UpdateNotificationPreferencesInput!) { updateNotificationPreferences(input: $input) {
                notificationPreferences { channels quietHours { start end } timeZone avoidBusyTimes } clientMutationId } }
            """,
            variables: Self.input(input), token: person.token)
    }
}
