import GraphQL
import HearthServices

extension HouseholdResolvers {
    /// `Subscription.householdEvents` and the `HouseholdEvent` fields that read the current state.
    ///
    /// Who receives what (subscribing, membership ending and falling behind are
    /// ``HouseholdEventSource``'s, shared with `choreEvents`):
    /// - The stream listens to the household's topic only, so another household's events never reach
    ///   it. It ends right after delivering the event that ends the subscriber's membership.
    ///   Membership regained later (a new invitation) needs a new subscription.
    /// - Sharing: subscriptions are shared among the connections of one user only
    ///   (``WebSocketAuthentication/sharingScope(_:)``), so the check made for a group's first member
    ///   holds for every member of the group, and the fields below, resolved with that user's access,
    ///   show every member what they may see.
    /// - `household` and `member` are read when the event is delivered, with the subscriber's access at
    ///   that moment: the current state, or null when it is gone or no longer visible (never an error,
    ///   which would not end the stream anyway but would tell clients nothing).
    static func installRealtime(into resolvers: inout Resolvers, households: HouseholdService) {
        resolvers.subscribe("householdEvents") { _, arguments, context, _ in
            let subscriber = try RequestContext.of(context).viewer()
            return try await HouseholdEventSource.stream(
                households: households, subscriber: subscriber, householdID: arguments.string("householdId") ?? "", after: nil
            ) { event, missedEvents, _ in
                try HouseholdEventValue(event, missedEvents: missedEvents, subscriber: subscriber)
            }
        }
        resolvers.resolveAsync("HouseholdEvent", "household") { source, _, _, _ in
            let event = source as! HouseholdEventValue
            return try await currentValue(of: event.change.householdID, for: event.subscriber, households: households)
        }
        resolvers.resolveAsync("HouseholdEvent", "member") { source, _, _, _ in
            let event = source as! HouseholdEventValue
            guard let memberID = event.change.memberID else { return nil }
            return try await currentValue(of: memberID, for: event.subscriber, households: households)
        }
    }

    /// The household object `id` (a household, a member) as `subscriber` may see it now; `nil` when
    /// it is gone or out of reach.
    static func currentValue(of id: String, for subscriber: Viewer, households: HouseholdService) async throws -> (any Sendable)? {
        try await households.nodes(ids: [id], viewer: subscriber)[id].map(value(of:))
    }
}
