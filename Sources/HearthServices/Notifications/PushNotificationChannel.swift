import FoundationEssentials
import HearthStore

/// The push channel: a notice becomes one push per registered device of its user, each queued
/// with its durable delivery job in the transaction that records the notice: an encrypted Web
/// Push per browser or UnifiedPush subscription, and an FCM message per native app registration
/// when the server has an FCM service account. What each carries is ``PushNoticePayload``.
///
/// - **Topic**: the notice's ``Notice/tag`` (`Topic` header; FCM's collapse key), so a newer push
///   about the same instance replaces one still queued here or at the push service.
/// - **Urgency**: `high` for a reminder at or past the due time, `normal` for the others.
/// - **TTL**: until the due time when it is ahead, else ``PushConfiguration/defaultNoticeTTLSeconds``;
///   at most ``PushConfiguration/maximumTTLSeconds``.
///
/// A withdrawal (FR-52) is a small `dismiss` push with the same topic, urgency and TTL rule to the
/// same devices: it replaces the notice wherever it still waits, and tells the app to close it.
/// Idempotent: it is told once per notice and once per withdrawal (``Notifier``).
public struct PushNotificationChannel: NotificationChannel {
    /// Where pushes are queued.
    public let push: PushService

    /// The push channel over `push`.
    public init(push: PushService) {
        self.push = push
    }

    public var kind: NotificationChannelKind { .push }

    public func deliver(_ notice: Notice, in database: Database) throws {
        let owner = OwnerScope(Owner(pushRecipient: notice.userID), database)
        let (name, zone) = try householdNameAndZone(of: notice, owner)
        try send(.notification(notice, householdName: name, timeZone: zone), about: notice, owner)
    }

    public func withdraw(_ notice: Notice, in database: Database) throws {
        try send(.dismissal(notice), about: notice, OwnerScope(Owner(pushRecipient: notice.userID), database))
    }

    /// Queues `payload` to every device of `notice`'s user.
    private func send(_ payload: PushNoticePayload, about notice: Notice, _ owner: OwnerScope) throws {
        let urgency = Self.urgency(of: notice)
        let ttl = ttl(of: notice, at: push.jobs.clock.now)
        let subscriptions = try PushService.subscriptions(of: owner)
        if !subscriptions.isEmpty {
            let json = payload.json
            for subscription in subscriptions {
                try push.enqueue(payload: json, to: subscription, topic: notice.tag, ttl: ttl, urgency: urgency, in: owner.database)
            }
        }
        guard push.configuration.fcm != nil else { return }
        for registration in try PushService.fcmRegistrations(of: owner) {
            try push.enqueueFCM(data: payload.fields, to: registration, collapseKey: notice.tag, ttl: ttl, urgency: urgency, in: owner.database)
        }
    }

    /// `high` for a reminder at (or past) its due time, `normal` otherwise.
    static func urgency(of notice: Notice) -> PushUrgency {
        guard notice.kind == .reminder, let dueAt = notice.dueAt, dueAt <= notice.createdAt else { return .normal }
        return .high
    }

    /// Seconds until the notice's due time when that is ahead of `now`, else the default; within the maximum.
    func ttl(of notice: Notice, at now: Date) -> Int {
        let configuration = push.configuration
        let untilDue = notice.dueAt.map { Int($0.timeIntervalSince(now).rounded(.up)) } ?? 0
        return min(untilDue > 0 ? untilDue : configuration.defaultNoticeTTLSeconds, configuration.maximumTTLSeconds)
    }

    /// The name of the notice's household and the time zone its due time is shown in: the
    /// household's, or the user's own (`User.timeZone`, UTC when unset) for a personal chore.
    private func householdNameAndZone(of notice: Notice, _ owner: OwnerScope) throws -> (String?, String?) {
        if let householdID = notice.householdID, let access = try HouseholdAccess.scheduled(householdID: householdID, in: owner.database) {
            let household = try HouseholdRecord.find(HouseholdScope(access, owner.database))
            return (household.name, household.timeZone)
        }
        return (nil, try owner.scalar(String.self, "SELECT time_zone FROM users WHERE id = {owner}") ?? "UTC")
    }
}
