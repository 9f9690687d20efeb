extension RecurrenceRule {
    /// Parses recurrence text, resolving TZID names in the system's time zone database
    /// (``TimeZoneRules/named(_:)``).
    ///
    /// - Parameter defaultTimeZone: the zone of a DTSTART without TZID or `Z` (the household's,
    ///   or the owner's for a personal chore).
    /// - Throws: ``RecurrenceError`` naming the part or property at fault.
    public static func parse(
        _ text: String, defaultTimeZone: TimeZoneRules, limits: RecurrenceLimits = RecurrenceLimits()
    ) throws(RecurrenceError) -> RecurrenceRule {
        try parse(text, defaultTimeZone: defaultTimeZone, limits: limits, timeZones: TimeZoneRules.named)
    }
}
