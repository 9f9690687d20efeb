import FoundationEssentials
import HearthDomain
import HearthStore

/// A habit as stored in `habits` (migrations 0022 and 0036).
public struct HabitRecord: Sendable, Hashable {
    /// `hab_…`.
    public var id: String
    /// The owner.
    public var userID: String
    /// 1–20 characters (``HabitRules``).
    public var title: String
    /// 0–30 characters; `""` for none.
    public var reason: String
    /// The day it starts, in the owner's time zone.
    public var startsOn: CalendarDay
    /// The weekdays it should occur on.
    public var plan: WeekdayPlan
    /// Who sees it besides the owner.
    public var visibility: HabitVisibility
    /// When the owner is reminded on its planned days: a minute of the day in their time zone; `nil` for no reminder.
    public var reminderMinute: Int?
    /// When it was created.
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date

    /// The columns ``init(row:)`` reads, of the table aliased `habits`.
    static let selection =
        "habits.id, habits.user_id, habits.title, habits.reason, habits.starts_on, habits.plan, habits.visibility, habits.reminder_minute, habits.created_at,"
        + " habits.updated_at"

    /// Reads a habit from `row` (``selection``).
    init(row: Row) throws {
        id = try row["id"]
        userID = try row["user_id"]
        title = try row["title"]
        reason = try row["reason"]
        startsOn = CalendarDay(try row["starts_on"] as String) ?? CalendarDay(dayNumber: 0)
        plan = WeekdayPlan(rawValue: try row["plan"]) ?? WeekdayPlan(rawValue: 127)!
        visibility = HabitVisibility(rawValue: try row["visibility"]) ?? .private
        reminderMinute = try row["reminder_minute"]
        createdAt = try row["created_at"]
        updatedAt = try row["updated_at"]
    }

    /// The viewer's own habit `id`, or `nil`: what only the owner may change.
    static func findOwn(id: String, _ owner: OwnerScope) throws -> HabitRecord? {
        try owner.queryOne("SELECT \(selection) FROM habits WHERE habits.id = ? AND habits.user_id = {owner}", [id]).map(HabitRecord.init(row:))
    }

    /// The habits of `ids` the viewer of `viewer` (the scope's owner) may see (``HabitAudience``).
    static func visible(ids: [String], _ viewer: OwnerScope) throws -> [HabitRecord] {
        guard !ids.isEmpty else { return [] }
        return try viewer.query(
            """
            SELECT \(selection) FROM habits WHERE habits.id IN (\(ChoreReferences.placeholders(ids.count)))
            AND (habits.user_id = {owner} OR \(HabitAudience.followedByScopeOwner))
            """,
            ChoreReferences.arguments(ids)
        ).map(HabitRecord.init(row:))
    }
}
