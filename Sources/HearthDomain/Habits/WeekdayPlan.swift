/// The weekdays a habit should occur on (US 01.02), at least one: stored as a bit set
/// (`habits.plan`), bit 0 for Monday through bit 6 for Sunday (ISO 8601 order, the numbering of
/// `CivilCalendar.weekday(ofDayNumber:)` and ``Weekday/isoIndex``).
public struct WeekdayPlan: Sendable, Hashable, Codable {
    /// The bit set, 1 to 127.
    public let rawValue: Int

    /// The plan of stored bits; `nil` outside 1–127.
    public init?(rawValue: Int) {
        guard (1...127).contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// The plan of `weekdays` (repeats count once).
    /// - Throws: ``FieldProblem`` `REQUIRED` for `field` when `weekdays` is empty.
    public init(_ weekdays: [Weekday], field: String) throws(FieldProblem) {
        let bits = weekdays.reduce(0) { $0 | 1 << $1.isoIndex }
        guard bits != 0 else { throw FieldProblem(field: field, reason: .required, message: "Choose at least one day of the week.") }
        rawValue = bits
    }

    /// The planned weekdays, Monday first.
    public var weekdays: [Weekday] {
        Weekday.allCases.filter(contains)
    }

    /// Whether the plan includes `weekday`.
    public func contains(_ weekday: Weekday) -> Bool {
        rawValue & 1 << weekday.isoIndex != 0
    }
}
