import FoundationEssentials
import GraphQL
import HearthServices

/// `Subscription.sharedChoreEvents(shareId:)`: the events of the chores one share shows its
/// recipient (FR-40 – FR-42), live, read-only.
///
/// - **Subscribing** needs the share to reach the subscriber (accepted with them, or their
///   household's while they and its owner are members); anything else is `NOT_FOUND`. The share is
///   read for its topics (its owner's, where personal chores' events are, and its household's), the
///   bus subscription taken, then the share read again, so a revocation committed after that check
///   is certainly delivered to the stream.
/// - **Each chore event** is delivered when the share covers its chore at that moment (a chore
///   tagged later is covered from then on; the deleted chore's `CHORE_DELETED` too): one read per
///   event of the owner's topic, the per-event check every subscription makes. Other events of the
///   owner (other chores, tags, scores) are never delivered.
/// - **The stream ends**, without an event, at the share's revocation (FR-42), when the subscriber
///   declines it on another device, its tag is deleted (a tag share goes with its tag), when they
///   or the owner leave (or are removed from) the household of a household's share, or the
///   household is deleted. After events were dropped
///   (a slow client), the share is read again before the next delivery.
enum SharedChoreEvents {
    static func install(into resolvers: inout Resolvers, services: InstanceServices) {
        let chores = services.chores
        let bus = chores.households.changeLog.bus
        resolvers.subscribe("sharedChoreEvents") { _, arguments, context, _ in
            let subscriber = try RequestContext.of(context).viewer()
            let shareID = arguments.string("shareId") ?? ""
            guard let share = try await chores.shareReaching(shareID, viewer: subscriber) else { throw ServiceError.shareNotFound }
            var topics: Set<Topic> = [.user(share.ownerID)]
            if let householdID = share.recipientHouseholdID { topics.insert(.household(householdID)) }
            let subscription = bus.subscribe(to: topics, bufferSize: HearthSchema.subscriptionBufferSize)
            do {
                guard try await chores.shareReaching(shareID, viewer: subscriber) != nil else { throw ServiceError.shareNotFound }
            } catch {
                subscription.cancel()
                throw error
            }
            return EventStream.steps(subscription) { event, missedEvents in
                try await step(event, missedEvents, share: share, subscriber: subscriber, chores: chores)
            }
        }
        resolvers.resolveAsync("SharedChoreEvent", "chore") { source, _, _, _ in
            let event = source as! SharedChoreEventValue
            return try await ChoreResolvers.currentChore(event.choreID, for: event.subscriber, chores: chores)
        }
        resolvers.resolveAsync("SharedChoreEvent", "instance") { source, _, _, _ in
            let event = source as! SharedChoreEventValue
            guard let instanceID = event.instanceID else { return nil }
            do {
                return ChoreInstanceValue.values([try await services.instances.instance(id: instanceID, viewer: event.subscriber)], services: services)[0]
            } catch let error as ServiceError where error.code == .notFound {
                return nil
            }
        }
    }

    /// What the stream does with one event (see ``SharedChoreEvents``).
    private static func step(
        _ event: Event, _ missedEvents: Bool, share: ChoreShareRecord, subscriber: Viewer, chores: ChoreService
    ) async throws -> EventStream.Step {
        if try endsShare(event, share: share, subscriber: subscriber) { return .end }
        // Declined on another device, or its tag deleted (which deletes a tag share): read it again.
        if missedEvents || [.choreShareAnswered, .tagDeleted].contains(event.kind), try await chores.shareReaching(share.id, viewer: subscriber) == nil {
            return .end
        }
        guard event.topic == .user(share.ownerID), let subject = try ChoreEventValue.subject(of: event), let choreID = subject.choreID,
              try await chores.isShared(choreID: choreID, through: share.id, viewer: subscriber, includingDeleted: event.kind == .choreDeleted)
        else { return .skip }
        return .next(SharedChoreEventValue(
            sequence: event.sequence, kind: ChoreEventValue.kindNames[event.kind] ?? "", shareID: share.id, choreID: choreID,
            instanceID: subject.instanceID, completionID: subject.completionID, at: event.committedAt, missedEvents: missedEvents,
            subscriber: subscriber))
    }

    /// Whether `event` ends the share for `subscriber`: its revocation, or, for a household's share,
    /// the subscriber or the owner leaving it, or its deletion.
    private static func endsShare(_ event: Event, share: ChoreShareRecord, subscriber: Viewer) throws -> Bool {
        switch event.kind {
        case .choreShareRevoked:
            return try event.payload.decode(ChoreShareChange.self).shareID == share.id
        case .householdDeleted, .memberLeft, .memberRemoved:
            guard let householdID = share.recipientHouseholdID, event.topic == .household(householdID) else { return false }
            if event.kind == .householdDeleted { return true }
            let userID = try event.payload.decode(HouseholdChange.self).userID
            return userID == subscriber.userID || userID == share.ownerID
        default:
            return false
        }
    }
}

/// One `SharedChoreEvent`: a chore event of a share, as delivered to one recipient; its `chore` and
/// `instance` are read when it is delivered, with the recipient's access then.
struct SharedChoreEventValue: Sendable, FieldResolvable {
    let sequence: Int64
    /// The `ChoreEventKind` name.
    let kind: String
    let shareID: String
    let choreID: String
    let instanceID: String?
    let completionID: String?
    let at: Date
    let missedEvents: Bool
    /// Who it is delivered to.
    let subscriber: Viewer

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "sequence": String(sequence)
        case "kind": kind
        case "shareId": shareID
        case "choreId": choreID
        case "instanceId": instanceID
        case "completionId": completionID
        case "at": at
        case "missedEvents": missedEvents
        default: nil
        }
    }
}
