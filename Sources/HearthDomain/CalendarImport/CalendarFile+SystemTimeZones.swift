extension CalendarFile {
    /// Parses an uploaded file, resolving TZID names with the system's time zone database.
    public static func parse(_ bytes: [UInt8], limits: CalendarFileLimits) throws(RecurrenceError) -> CalendarFile {
        try parse(bytes, limits: limits, timeZones: TimeZoneRules.named)
    }

    /// Parses a stored calendar (``parse(stored:events:timeZones:)``) with the system's zones.
    public static func parse(stored timeZoneText: String, events: [String]) throws(RecurrenceError) -> CalendarFile {
        try parse(stored: timeZoneText, events: events, timeZones: TimeZoneRules.named)
    }
}
