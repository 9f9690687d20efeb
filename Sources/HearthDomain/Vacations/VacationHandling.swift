/// What happens to the chore instances a member holds in the household they leave for a vacation
/// (FR-19, FR-21, FR-22). Stored as the raw value (`member_vacations.handling`).
public enum VacationHandling: String, Sendable, CaseIterable, Codable {
    /// Their instances wait, paused, until they (or, for a shared one, another eligible member) are
    /// available again (FR-22).
    case pause
    /// Their instances go to the remaining available eligible members (``LoadBalancedAssignment``);
    /// one with nobody eligible is paused (FR-21).
    case redistribute
}

/// Where a vacation stands. Stored as the raw value (`member_vacations.status`).
public enum VacationStatus: String, Sendable, CaseIterable, Codable {
    /// Its start is still to come (the `vacation.start` job begins it).
    case scheduled
    /// The member is away now.
    case active
    /// Over: ended by hand, at its end, or cancelled before it began.
    case ended
}

/// The time a vacation covers: from `start`, until `end` (open-ended without one).
public struct VacationPeriod: Sendable, Hashable {
    /// When it starts.
    public var start: Double
    /// When it ends; `nil` until someone ends it.
    public var end: Double?

    /// A period from `start` (seconds since 1970) to `end`.
    public init(start: Double, end: Double?) {
        self.start = start
        self.end = end
    }

    /// Whether the two periods share a moment. Periods are half-open (`[start, end)`), so one
    /// ending exactly when the next starts does not overlap it.
    public func overlaps(_ other: VacationPeriod) -> Bool {
        start < (other.end ?? .infinity) && other.start < (end ?? .infinity)
    }
}
