import FoundationEssentials
import GraphQL
import HearthDomain
import HearthServices

/// The resolvers of reminders' and notifications' fields (issue 18) over ``NotificationService``:
/// `notifications`, `notificationPreferences`, `updateNotificationPreferences`,
/// `markNotificationRead`, `node` lookups of notifications and the `notifications` subscription.
enum NotificationResolvers {
    static func install(into resolvers: inout Resolvers, notifications: NotificationService) {
        resolvers.resolveAsync("Query", "notifications") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let page = try await notifications.notifications(viewer: viewer, first: arguments.int("first"), after: arguments.string("after"))
            return InstanceResolvers.connection(page.edges.map(\.cursor), page.edges.map { NotificationValue(record: $0.node) }, page)
        }
        resolvers.resolveAsync("Query", "notificationPreferences") { _, _, context, _ in
            NotificationPreferencesValue(preferences: try await notifications.preferences(viewer: try RequestContext.of(context).viewer()))
        }
        resolvers.resolveMutation("updateNotificationPreferences") { input, context in
            let preferences = try await notifications.updateNotificationPreferences(
                try update(input), viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["notificationPreferences": NotificationPreferencesValue(preferences: preferences)]
        }
        resolvers.resolveMutation("markNotificationRead") { input, context in
            let record = try await notifications.markNotificationRead(
                id: try input.requiredString("notificationId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["notification": NotificationValue(record: record)]
        }
        installEvents(into: &resolvers, notifications: notifications)
    }

    /// The `notifications` subscription: the notice events on the subscriber's own topic, live;
    /// other events of that topic are skipped.
    private static func installEvents(into resolvers: inout Resolvers, notifications: NotificationService) {
        let bus = notifications.households.changeLog.bus
        let kinds: [EventKind: String] = [.notificationCreated: "CREATED", .notificationDismissed: "DISMISSED"]
        resolvers.subscribe("notifications") { _, _, context, _ in
            let subscriber = try RequestContext.of(context).viewer()
            return EventStream.steps(bus.subscribe(to: [.user(subscriber.userID)], bufferSize: HearthSchema.subscriptionBufferSize)) {
                event, missedEvents in
                guard let kind = kinds[event.kind] else { return .skip }
                let notice = try event.payload.decode(Notice.self)
                let record = NotificationRecord(notice: notice, dismissedAt: event.kind == .notificationDismissed ? event.committedAt : nil)
                let value: [String: any Sendable] = [
                    "sequence": String(event.sequence), "kind": kind, "notification": NotificationValue(record: record), "tag": notice.tag,
                    "missedEvents": missedEvents,
                ]
                return .next(value)
            }
        }
    }

    /// The update an `UpdateNotificationPreferencesInput` asks for.
    private static func update(_ input: MutationInput) throws -> NotificationService.PreferencesUpdate {
        var update = NotificationService.PreferencesUpdate(
            channels: try input.enumValues("channels", as: NotificationChannelKind.self), timeZone: input.change("timeZone"),
            avoidsBusyTimes: input.bool("avoidBusyTimes"))
        if input.fields["quietHours"] != nil {
            update.quietHours = .some(try input.object("quietHours").map { quiet in
                // The LocalTime scalar admitted both.
                QuietHours(
                    startMinute: QuietHours.minute(localTime: try quiet.requiredString("start")) ?? 0,
                    endMinute: QuietHours.minute(localTime: try quiet.requiredString("end")) ?? 0)
            })
        }
        return update
    }

    /// The viewer's notifications among `ids`, by id (for `node`/`nodes`).
    static func nodes(ids: [String], notifications: NotificationService, context: RequestContext) async throws -> [String: any Sendable] {
        guard let viewer = context.optionalViewer else { return [:] }
        var found: [String: any Sendable] = [:]
        for record in try await notifications.notifications(ids: ids, viewer: viewer) { found[record.notice.id] = NotificationValue(record: record) }
        return found
    }
}
