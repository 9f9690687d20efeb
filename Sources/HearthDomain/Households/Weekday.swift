/// A day of the week, as a household's `firstWeekday` names it (where its leaderboard's weeks
/// start). Stored as the lowercase English name.
public enum Weekday: String, Sendable, Hashable, CaseIterable, Codable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The default: ISO 8601 weeks start on Monday.
    public static let fallback = Weekday.monday

    /// 0 for Monday through 6 for Sunday, the numbering of `CivilCalendar.weekday(ofDayNumber:)`.
    public var isoIndex: Int { Self.allCases.firstIndex(of: self)! }
}
