import Foundation
import HearthDomain

/// Shorthands for the recurrence tests: rules parsed against the system's zones, instants
/// written as UTC text.
enum RecurrenceTesting {
    struct UnknownZone: Error {}

    static func zone(_ name: String) throws -> TimeZoneRules {
        guard let zone = TimeZoneRules.named(name) else { throw UnknownZone() }
        return zone
    }

    /// `lines` joined by LF, parsed with `defaultZone` as the household's zone.
    static func rule(_ lines: String..., defaultZone: String = "Europe/Berlin", limits: RecurrenceLimits = RecurrenceLimits()) throws
        -> RecurrenceRule
    {
        try RecurrenceRule.parse(lines.joined(separator: "\n"), defaultTimeZone: zone(defaultZone), limits: limits)
    }

    /// `2026-03-29T01:30:00Z` as a date.
    static func utc(_ text: String) -> Date {
        try! Date(text, strategy: .iso8601)
    }

    /// Dates as `2026-03-29T01:30:00Z` texts, for readable comparisons.
    static func texts(_ dates: [Date]) -> [String] {
        dates.map { $0.formatted(.iso8601) }
    }

    /// The first `count` occurrences as UTC texts.
    static func first(_ count: Int, of rule: RecurrenceRule) -> [String] {
        texts(rule.occurrences(after: .distantPast, limit: count))
    }
}
