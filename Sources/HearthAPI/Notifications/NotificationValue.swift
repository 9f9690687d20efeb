import FoundationEssentials
import GraphQL
import HearthDomain
import HearthServices

/// A `Notification` of `schema.graphql`.
struct NotificationValue: Sendable, FieldResolvable, TypeNameResolvable {
    let record: NotificationRecord

    var graphQLTypeName: String { "Notification" }

    func fieldValue(named name: String) -> Any? {
        let notice = record.notice
        return switch name {
        case "id": notice.id
        case "kind": GraphQLEnum.name(of: notice.kind)
        case "title": notice.title
        case "body": notice.body
        case "dueAt": notice.dueAt
        case "householdId": notice.householdID
        case "choreId": notice.choreID
        case "choreInstanceId": notice.instanceID
        case "tag": notice.tag
        case "deepLink": notice.deepLink
        case "actions": notice.actions.map { GraphQLEnum.name(of: $0) }
        case "createdAt": notice.createdAt
        case "readAt": record.readAt
        case "dismissedAt": record.dismissedAt
        case "skippedReason": record.skippedReason.map { GraphQLEnum.name(of: $0) }
        case "deliveryOutcome": GraphQLEnum.name(of: record.deliveryOutcome)
        case "delayReason": record.delayReason.map { GraphQLEnum.name(of: $0) }
        case "originalTime": record.originalTime
        case "habitId": notice.habitID
        default: nil
        }
    }
}

/// A `NotificationPreferences` of `schema.graphql`.
struct NotificationPreferencesValue: Sendable, FieldResolvable {
    let preferences: NotificationPreferences

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "channels": NotificationChannelKind.allCases.filter(preferences.channels.contains).map { GraphQLEnum.name(of: $0) }
        case "quietHours": preferences.quietHours.map { quiet -> [String: any Sendable] in
            ["start": QuietHours.localTime(quiet.startMinute), "end": QuietHours.localTime(quiet.endMinute)]
        }
        case "timeZone": preferences.timeZone
        case "avoidBusyTimes": preferences.avoidsBusyTimes
        default: nil
        }
    }
}

/// A `ChoreReminder` of `schema.graphql`.
struct ChoreReminderValue: Sendable, FieldResolvable {
    let offset: ReminderOffset

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "before": offset.iso8601
        case "isAtDueTime": offset.isAtDueTime
        default: nil
        }
    }
}
