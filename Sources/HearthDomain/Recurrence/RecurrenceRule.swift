import FoundationEssentials
import Support

/// A recurrence in the RFC 5545 subset Hearth supports: a `DTSTART` line, an `RRULE` line and
/// optional `EXDATE` lines.
///
/// Placeholder for the full rule of branch `rrule`, which replaces this file (same API): until
/// then it checks the text's shape only: the lines, the supported `RRULE` parts and their values'
/// form. It expands no occurrences.
public struct RecurrenceRule: Sendable, Hashable {
    /// The rule as RFC 5545 text: its lines joined with a line feed.
    public let text: String

    /// The parts of an `RRULE` Hearth supports.
    static let supportedParts: Set<String> = ["FREQ", "INTERVAL", "COUNT", "UNTIL", "BYDAY", "BYMONTHDAY", "BYMONTH", "BYSETPOS", "WKST"]
    /// The frequencies Hearth supports.
    static let supportedFrequencies: Set<String> = ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"]

    /// Parses `text`; a `DTSTART` without `TZID` or `Z` is local time in `defaultTimeZone`.
    /// - Throws: ``RecurrenceError`` naming the part that is missing, unsupported or malformed.
    public static func parse(_ text: String, defaultTimeZone: TimeZone) throws(RecurrenceError) -> RecurrenceRule {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        var start: String?
        var rule: String?
        for line in lines {
            let name = line.prefix { $0 != ":" && $0 != ";" }.uppercased()
            switch name {
            case "DTSTART":
                guard start == nil else { throw RecurrenceError(part: "DTSTART", message: "give one DTSTART line") }
                guard let value = line.split(separator: ":").last, value.count >= 15 else {
                    throw RecurrenceError(part: "DTSTART", message: "expected a date-time such as 20260329T023000")
                }
                start = line
            case "RRULE":
                guard rule == nil else { throw RecurrenceError(part: "RRULE", message: "give one RRULE line") }
                try checkRule(String(line.dropFirst("RRULE:".count)))
                rule = line
            case "EXDATE":
                continue
            default:
                throw RecurrenceError(part: name.isEmpty ? nil : name, message: "only DTSTART, RRULE and EXDATE lines are supported")
            }
        }
        guard start != nil else { throw RecurrenceError(part: "DTSTART", message: "a recurrence starts with a DTSTART line") }
        guard rule != nil else { throw RecurrenceError(part: "RRULE", message: "a recurrence needs an RRULE line") }
        return RecurrenceRule(text: lines.joined(separator: "\n"))
    }

    private static func checkRule(_ rule: String) throws(RecurrenceError) {
        var frequency: String?
        for part in rule.split(separator: ";") {
            let pieces = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pieces.count == 2, !pieces[1].isEmpty else { throw RecurrenceError(part: String(part), message: "expected NAME=VALUE") }
            let (name, value) = (pieces[0].uppercased(), pieces[1].uppercased())
            guard supportedParts.contains(name) else { throw RecurrenceError(part: name, message: "not supported") }
            switch name {
            case "FREQ":
                guard supportedFrequencies.contains(value) else {
                    throw RecurrenceError(part: "FREQ", message: "\(value) is not supported: use DAILY, WEEKLY, MONTHLY or YEARLY")
                }
                frequency = value
            case "INTERVAL", "COUNT":
                guard let number = Int(value), number > 0 else { throw RecurrenceError(part: name, message: "expected a positive integer") }
            default:
                continue
            }
        }
        guard frequency != nil else { throw RecurrenceError(part: "FREQ", message: "an RRULE needs FREQ") }
    }
}

/// Why a recurrence text was refused: the part (`FREQ`, `BYHOUR`, `DTSTART`, …) and what is
/// wrong with it.
public struct RecurrenceError: Error, Sendable, Hashable {
    /// The line or `RRULE` part refused, when one is to blame.
    public var part: String?
    /// What is wrong, for people.
    public var message: String

    /// Creates the error.
    public init(part: String?, message: String) {
        self.part = part
        self.message = message
    }
}
