import HearthDomain

/// What `createHabit` is given (US 01.01, US 01.02); checked by ``HabitService``.
public struct HabitDraft: Sendable {
    /// 1–20 characters after trimming.
    public var title: String
    /// 0–30 characters after trimming.
    public var reason: String?
    /// The day it starts.
    public var startsOn: CalendarDay
    /// The weekdays it should occur on, at least one.
    public var plan: [Weekday]
    /// Who sees it; followers when absent.
    public var visibility: HabitVisibility?
    /// The id the client made for it offline (`hab_<uuid>`, ``ClientIDs``); the server makes one when absent.
    public var id: String?
    /// When to remind the owner on its planned days, a minute of the day in their time zone; none when `nil`.
    public var reminderMinute: Int?

    /// Creates a draft.
    public init(
        title: String, reason: String?, startsOn: CalendarDay, plan: [Weekday], visibility: HabitVisibility? = nil, id: String? = nil,
        reminderMinute: Int? = nil
    ) {
        self.id = id
        self.reminderMinute = reminderMinute
        self.title = title
        self.reason = reason
        self.startsOn = startsOn
        self.plan = plan
        self.visibility = visibility
    }
}

/// What `updateHabit` changes (US 01.04): each field given replaces the stored one, absent ones
/// stay; a `reason` of `nil` inside (explicit `null`) clears it.
public struct HabitChanges: Sendable {
    /// A new title.
    public var title: String?
    /// A new reason; `.some(nil)` clears it.
    public var reason: String??
    /// A new start.
    public var startsOn: CalendarDay?
    /// A new plan.
    public var plan: [Weekday]?
    /// A new visibility.
    public var visibility: HabitVisibility?
    /// A new reminder time (a minute of the day); `.some(nil)` removes the reminder.
    public var reminderMinute: Int??

    /// Creates changes.
    public init(
        title: String? = nil, reason: String?? = nil, startsOn: CalendarDay? = nil, plan: [Weekday]? = nil, visibility: HabitVisibility? = nil,
        reminderMinute: Int?? = nil
    ) {
        self.reminderMinute = reminderMinute
        self.title = title
        self.reason = reason
        self.startsOn = startsOn
        self.plan = plan
        self.visibility = visibility
    }
}
