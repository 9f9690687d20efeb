import FoundationEssentials

/// One notice for one user, as every channel delivers it (the live stream, email, push): what
/// happened, about which chore instance, and what the user may do from it. Its ``id`` is the
/// `notifications` row's (`ntf_…`), so a channel that delivers it twice (a job run again after a
/// crash) recognises the copy: channels are idempotent by ``id``.
public struct Notice: Sendable, Hashable, Codable {
    /// The notification's id (`ntf_…`).
    public var id: String
    /// The account it is for.
    public var userID: String
    /// Why it was made.
    public var kind: NoticeKind
    /// A short title: the chore's title.
    public var title: String
    /// One sentence saying what it is about ("Due in 30 minutes", "Assigned to you").
    public var body: String
    /// When the chore instance is due, for a notice about one.
    public var dueAt: Date?
    /// The household, for a household chore's notice.
    public var householdID: String?
    /// The chore.
    public var choreID: String?
    /// The chore instance, for a notice about one.
    public var instanceID: String?
    /// The habit, for a habit's reminder.
    public var habitID: String?
    /// What a later dismissal names (at most 32 base64url characters): the same for every notice
    /// about one instance, so a claim withdraws each of them (push: the `Topic` header).
    public var tag: String
    /// When it was made.
    public var createdAt: Date

    /// The deep link a client opens: `hearth://chore/<instance id>`, or the chore's id when the
    /// notice is about a chore rather than one of its instances; `hearth://habit/<id>` for a habit's.
    public var deepLink: String? {
        (instanceID ?? choreID).map { "hearth://chore/\($0)" } ?? habitID.map { "hearth://habit/\($0)" }
    }

    /// What the user may do from the notice: claim a due shared instance ("I'll do it", FR-52).
    public var actions: [NoticeAction] {
        kind.offersClaim && householdID != nil && instanceID != nil ? [.claim] : []
    }

    /// The tag of the notices about `instanceID` (or any other global id): its UUID's 32 hex
    /// digits (which are base64url characters), or the id's first 32 base64url characters.
    public static func tag(for id: String) -> String {
        let uuid = id.split(separator: "_").last.map(String.init) ?? id
        let hex = uuid.filter { $0.isHexDigit }
        if hex.count == 32 { return hex.lowercased() }
        return String(id.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }.prefix(32))
    }
}

/// Why a ``Notice`` was made.
public enum NoticeKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A reminder before (or at) a chore instance's due time (FR-49, FR-50).
    case reminder
    /// A claim on a shared instance was released: it can be claimed again (FR-53).
    case released
    /// A chore was assigned to the user (FR-32).
    case assigned
    /// A chore the user is assigned to was changed (FR-33).
    case changed
    /// A habit's reminder on one of its planned days.
    case habitReminder = "habit_reminder"
    /// The user switched their active household (FR-11): its chores' reminders come to them now,
    /// the previous one's stop.
    case activeHouseholdChanged = "active_household_changed"
    /// A calendar feed the user subscribed to is gone (410, or 404 too often) and no longer refreshed (FR-61).
    case calendarFeedDead = "calendar_feed_dead"
    /// Google refused the user's Google Calendar connection (its refresh token revoked or expired):
    /// no more syncs or exports until they connect again (FR-62).
    case googleCalendarReconnect = "google_calendar_reconnect"

    /// Whether its notice carries the claim action.
    var offersClaim: Bool { self == .reminder || self == .released }
}

/// An action a ``Notice`` offers.
public enum NoticeAction: String, Sendable, Hashable, Codable {
    /// "I'll do it": `claimChore` on the notice's instance.
    case claim
}
