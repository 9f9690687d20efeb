import FoundationEssentials
import HearthDomain

/// A user's widget feed (FR-65): the chore instances due today, in their time zone, from their
/// active household and their personal chores, by due time. Made by ``WidgetService/feed(viewer:)``;
/// the API writes it as JSON (`GET /widget/feed`) and as the GraphQL `WidgetFeed`.
public struct WidgetFeed: Sendable, Hashable {
    /// The day the feed is for: today in ``timeZone``.
    public var day: CalendarDay
    /// The user's time zone (`User.timeZone`; UTC when they chose none).
    public var timeZone: String
    /// The user's active household (id and name); `nil` when they belong to none.
    public var household: Household?
    /// The entries, by due time (then instance id), at most the configured number.
    public var entries: [WidgetFeedEntry]
    /// Whether entries were left out beyond the configured number.
    public var hasMore: Bool
    /// What the feed was read at: not content, what a kept copy is checked against.
    public var stamp: WidgetFeedStamp

    /// The household a feed is from.
    public struct Household: Sendable, Hashable {
        /// Its id (`hh_…`).
        public var id: String
        /// Its name.
        public var name: String
    }
}

/// One entry of a ``WidgetFeed``: what a widget row shows, and where its taps go.
public struct WidgetFeedEntry: Sendable, Hashable {
    /// The instance (`chi_…`).
    public var instanceID: String
    /// Its chore (`chr_…`).
    public var choreID: String
    /// The chore's title.
    public var title: String
    /// When it is due.
    public var dueAt: Date
    /// Where it stands: `pending`, `pendingApproval` or `completed`.
    public var status: ChoreInstanceStatus
    /// The household it belongs to; `nil` for a personal chore.
    public var householdID: String?
    /// That household's name.
    public var householdName: String?
    /// Whether the chore has steps (one tap cannot say which step: the widget opens the app).
    public var hasSteps: Bool
    /// The signed one-tap action link that completes it (`POST`); `nil` when it is done already or
    /// has steps.
    public var completeURL: String?
    /// The app's deep link to the chore, `hearth://chore/<chore id>`.
    public var appURL: String
    /// The same chore on the web, `<public base URL>/chore/<chore id>`: the fallback where the app is
    /// not installed.
    public var webURL: String
}

/// What a widget feed depends on: the day and time zone it is for, and the change-log stamp
/// (``ChoreViewStamp``) of the scopes it reads, the viewer's personal chores and their active
/// household. Every write that can change a feed records a change on one of those topics (the
/// stamp's contract; switching the active household, a time zone or a household's name
/// included), or changes the scopes themselves, so two equal stamps read the same feed and a kept
/// copy may be served again. A new day (or zone) is a new stamp.
public struct WidgetFeedStamp: Sendable, Hashable {
    /// The day the feed is for.
    public let day: CalendarDay
    /// The viewer's time zone.
    public let timeZone: String
    /// The scopes read and their newest change-log sequences.
    public let view: ChoreViewStamp
}
