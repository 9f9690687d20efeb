import FoundationEssentials
import GraphQL
import HearthServices

extension FollowResolvers {
    /// `Subscription.followEvents`: the follow events on the subscriber's own topic (where every
    /// change to a follow of theirs is recorded, whichever side made it), live; other events of
    /// that topic are skipped. `follow` is read when the event is delivered.
    static func installEvents(into resolvers: inout Resolvers, follows: FollowService) {
        let bus = follows.households.changeLog.bus
        resolvers.subscribe("followEvents") { _, _, context, _ in
            let subscriber = try RequestContext.of(context).viewer()
            return EventStream.steps(bus.subscribe(to: [.user(subscriber.userID)], bufferSize: HearthSchema.subscriptionBufferSize)) {
                event, missedEvents in
                guard let kind = FollowEventValue.kindNames[event.kind] else { return .skip }
                let change = try event.payload.decode(FollowChange.self)
                return .next(FollowEventValue(
                    sequence: event.sequence, kind: kind, change: change, at: event.committedAt, missedEvents: missedEvents, subscriber: subscriber))
            }
        }
        resolvers.resolveAsync("FollowEvent", "follow") { source, _, _, _ in
            let event = source as! FollowEventValue
            do {
                return FollowValue(record: try await follows.follow(id: event.change.followID, viewer: event.subscriber))
            } catch let error as ServiceError where error.code == .notFound {
                return nil
            }
        }
    }
}

/// One `FollowEvent`, as delivered to one subscriber.
struct FollowEventValue: Sendable, FieldResolvable {
    /// The `FollowEventKind` name of each follow event kind.
    static let kindNames: [EventKind: String] = [
        .followRequested: "REQUESTED", .followAccepted: "ACCEPTED", .followDeclined: "DECLINED", .followCancelled: "CANCELLED",
        .followRemoved: "REMOVED",
    ]

    let sequence: Int64
    let kind: String
    let change: FollowChange
    let at: Date
    let missedEvents: Bool
    /// Who it is delivered to.
    let subscriber: Viewer

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "sequence": String(sequence)
        case "kind": kind
        case "followId": change.followID
        case "followerId": change.followerID
        case "followedId": change.followedID
        case "at": at
        case "missedEvents": missedEvents
        default: nil
        }
    }
}
