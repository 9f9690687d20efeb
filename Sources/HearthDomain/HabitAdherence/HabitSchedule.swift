import Support

/// When a habit is due: the weekdays of its plan from the day it starts, as adherence counts them.
///
/// Days are local calendar days written as day numbers (days since 1970-01-01, ``CivilCalendar``),
/// so a day is a day whatever a daylight-saving change does to its length. `plan` is the stored
/// weekday bit set of migration 0022 (bit 0 Monday … bit 6 Sunday, ISO 8601's order, as
/// ``WeekdayPlan/rawValue``).
public struct HabitSchedule: Sendable, Hashable {
    /// The weekdays as a bit set: bit 0 is Monday, bit 6 Sunday.
    public var plan: Int
    /// The first day the habit is planned on or after (its `startsOn`), a day number.
    public var startsOn: Int

    /// A schedule of the weekdays of `plan` (only bits 0–6 are read) from `startsOn` on.
    public init(plan: Int, startsOn: Int) {
        self.plan = plan & 0x7F
        self.startsOn = startsOn
    }

    /// The schedule of a habit's stored plan and start.
    public init(_ plan: WeekdayPlan, startsOn: CalendarDay) {
        self.init(plan: plan.rawValue, startsOn: startsOn.dayNumber)
    }

    /// Whether `weekday` (0 Monday … 6 Sunday) is in the plan.
    public func plans(weekday: Int) -> Bool {
        plan & (1 << weekday) != 0
    }

    /// Whether day `day` is a planned day: on or after `startsOn` and on a weekday of the plan.
    public func isPlanned(_ day: Int) -> Bool {
        day >= startsOn && plans(weekday: CivilCalendar.weekday(ofDayNumber: day))
    }

    /// How many planned days lie in `first...last` (none when `last < first`), counted by whole
    /// weeks so a habit started decades ago costs no more than one started yesterday.
    public func plannedDays(from first: Int, through last: Int) -> Int {
        let first = max(first, startsOn)
        guard last >= first else { return 0 }
        let length = last - first + 1
        let wholeWeeks = length / 7
        var count = wholeWeeks * plan.nonzeroBitCount
        for day in (first + wholeWeeks * 7)..<(last + 1) where isPlanned(day) { count += 1 }
        return count
    }

    /// The last planned day before `day`, or nil when there is none from `startsOn` on.
    public func plannedDay(before day: Int) -> Int? {
        guard plan != 0 else { return nil }
        var candidate = day - 1
        while candidate >= startsOn {
            if isPlanned(candidate) { return candidate }
            candidate -= 1
        }
        return nil
    }

    /// The last planned day on or before `day`, or nil when there is none from `startsOn` on.
    public func plannedDay(onOrBefore day: Int) -> Int? {
        isPlanned(day) ? day : plannedDay(before: day)
    }
}
