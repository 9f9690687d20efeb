/// The unit of an `afterCompletion` schedule's interval. Stored as the raw value.
public enum IntervalUnit: String, Sendable, CaseIterable, Codable {
    /// Calendar days in the household's (or owner's) time zone.
    case days
    /// Weeks of seven calendar days.
    case weeks

    /// The longest interval in this unit: a year.
    public var maximumCount: Int {
        switch self {
        case .days: 366
        case .weeks: 52
        }
    }

    /// Checks that an interval of `count` of this unit is 1 to a year long.
    /// - Throws: ``FieldProblem`` `OUT_OF_RANGE` for `field`.
    public func check(_ count: Int, field: String) throws(FieldProblem) {
        guard (1...maximumCount).contains(count) else {
            throw FieldProblem(field: field, reason: .outOfRange, message: "Choose 1 to \(maximumCount) \(rawValue).")
        }
    }
}
