import HearthDomain

/// The one place a stored IANA zone name (a household's, or a personal chore owner's) becomes the
/// ``TimeZoneRules`` recurrence rules are read in (``ChoreSchedule/recurrence(_:timeZone:limits:field:)``,
/// ``ChoreTimeline``).
enum RecurrenceZone {
    /// The rules of zone `name`.
    /// - Throws: `BAD_USER_INPUT` (`UNKNOWN_VALUE` on `timeZone`) naming the zone when the system's
    ///   time zone database does not have it. Names are checked when households and users store
    ///   them, so only a database that dropped a zone since gives this; reading the chores in UTC
    ///   instead would move every due time without a word.
    static func timeZone(named name: String) throws -> TimeZoneRules {
        guard let zone = TimeZoneRules.named(name) else {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "timeZone", reason: .unknownValue,
                message: "The time zone \(name) is not in this server's time zone database: choose another for the household (or your account).")]))
        }
        return zone
    }
}
