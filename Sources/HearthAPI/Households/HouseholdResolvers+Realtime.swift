import GraphQL
import HearthServices

extension HouseholdResolvers {
    /// `Subscription.householdEvents` and the `HouseholdEvent` fields that read the current state.
    ///
    /// Who receives what:
    /// - Subscribing needs active membership of the household: non-members and unknown ids get the
    ///   same `NOT_FOUND`. The bus subscription is taken before the membership is read, so a departure
    ///   committed after that read is certainly delivered to the stream; one committed before it makes
    ///   the check fail. No departure can fall in between.
    /// - The stream listens to the household's topic only, so another household's events never reach it.
    /// - It ends right after delivering the event that ends the subscriber's membership: their own
    ///   `member.left` or `member.removed`, or `household.deleted`. This is the per-event membership
    ///   check, and it costs nothing: the bus delivers every subscriber's events in commit order, so
    ///   the departure precedes every event committed after it, and the stream has ended before any of
    ///   them. Membership regained later (a new invitation) needs a new subscription.
    /// - Events dropped for a subscriber who fell behind may include that departure: the first event
    ///   after such a gap is delivered only after the membership is read again, and the stream ends
    ///   without it when the membership is gone.
    /// - Sharing: subscriptions are shared among the connections of one user only
    ///   (``WebSocketAuthentication/sharingScope(_:)``), so the check made for a group's first member
    ///   holds for every member of the group, and the fields below, resolved with that user's access,
    ///   show every member what they may see.
    /// - `household` and `member` are read when the event is delivered, with the subscriber's access at
    ///   that moment: the current state, or null when it is gone or no longer visible (never an error,
    ///   which would not end the stream anyway but would tell clients nothing).
    static func installRealtime(into resolvers: inout Resolvers, households: HouseholdService) {
        // The bus the service's change log publishes on: the subscription cannot listen elsewhere.
        let bus = households.changeLog.bus
        resolvers.subscribe("householdEvents") { _, arguments, context, _ in
            let subscriber = try RequestContext.of(context).viewer()
            let householdID = arguments.string("householdId") ?? ""
            let subscription = bus.subscribe(to: [.household(householdID)], bufferSize: HearthSchema.subscriptionBufferSize)
            do {
                _ = try await households.access(viewer: subscriber, householdID: householdID)
            } catch {
                subscription.cancel()
                throw error
            }
            return EventStream.steps(subscription) { event, missedEvents in
                guard let value = try HouseholdEventValue(event, missedEvents: missedEvents, subscriber: subscriber) else { return .skip }
                if value.endsMembership { return .last(value) }
                if missedEvents, try await !households.isActiveMember(subscriber, of: householdID) { return .end }
                return .next(value)
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

    /// The household object `id` as `subscriber` may see it now; `nil` when it is gone or out of reach.
    private static func currentValue(of id: String, for subscriber: Viewer, households: HouseholdService) async throws -> (any Sendable)? {
        try await households.nodes(ids: [id], viewer: subscriber)[id].map(value(of:))
    }
}
