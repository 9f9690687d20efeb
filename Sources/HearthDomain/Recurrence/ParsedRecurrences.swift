import Synchronization

/// Stored recurrence text parsed once per process: a chore list shows the next due time of each
/// of its chores, and parsing a rule (its content lines, RRULE parts, DTSTART and EXDATE times)
/// costs more than finding that time, so ``ChoreTimeline`` keeps the rules it parsed, by text and
/// default zone. A parsed rule depends on nothing else (TZID names resolve through
/// ``TimeZoneRules/named(_:)``, itself read once per process), so a kept rule is the one parsing
/// would give. Text that does not parse is not kept (it throws again).
///
/// Bounded by ``capacity`` rules (a rule is well under a kilobyte): when full, it starts over.
enum ParsedRecurrences {
    /// The most rules kept.
    static let capacity = 4_096

    private struct Key: Hashable, Sendable {
        let text: String
        let zone: TimeZoneRules
    }

    private static let rules = Mutex<[Key: RecurrenceRule]>([:])

    /// `text` parsed with `defaultTimeZone` as the zone of a floating DTSTART and no limits
    /// (stored text passed the limits when it was saved; lower limits since must not break it).
    /// - Throws: ``RecurrenceError`` for text that does not parse.
    static func rule(_ text: String, defaultTimeZone: TimeZoneRules) throws(RecurrenceError) -> RecurrenceRule {
        let key = Key(text: text, zone: defaultTimeZone)
        if let kept = rules.withLock({ $0[key] }) { return kept }
        let rule = try RecurrenceRule.parse(text, defaultTimeZone: defaultTimeZone, limits: .unlimited)
        rules.withLock { rules in
            if rules.count >= capacity { rules.removeAll(keepingCapacity: true) }
            rules[key] = rule
        }
        return rule
    }
}
