/// Why a recurrence text (or an imported calendar file, ``CalendarFile``) was refused: a
/// ``code`` to match on, the RRULE part or iCalendar property (or parameter) at fault, the
/// line when the text has many, and a message for people.
public struct RecurrenceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of refusal.
    public enum Code: String, Sendable {
        /// Not valid RFC 5545 text: a value out of range, a missing or repeated part, parts
        /// that contradict each other.
        case malformed = "MALFORMED"
        /// Valid RFC 5545 that chores do not support (`BYHOUR`, `FREQ=HOURLY`, `RDATE`, …).
        case unsupported = "UNSUPPORTED"
        /// Longer than ``RecurrenceLimits/maximumTextLength`` or with more EXDATE values than
        /// ``RecurrenceLimits/maximumExceptionDates``.
        case limitExceeded = "LIMIT_EXCEEDED"
        /// A `TZID` the system's time zone database does not know.
        case unknownTimeZone = "UNKNOWN_TIME_ZONE"
    }

    /// The kind of refusal.
    public let code: Code
    /// The offending RRULE part (`BYHOUR`, `INTERVAL`), property (`DTSTART`, `EXDATE`) or
    /// parameter (`TZID`), upper-case; nil when the text as a whole is at fault.
    public let part: String?
    /// What is wrong, for people.
    public let message: String
    /// The line of the text (counting from 1) at fault, when one is: in a calendar file of many
    /// lines, where to look.
    public private(set) var line: Int?

    /// Names at most this many characters of a part the input named, so an error never echoes
    /// a long input.
    static let maximumPartLength = 40

    public init(code: Code, part: String?, message: String) {
        self.code = code
        self.part = part.map { String($0.prefix(Self.maximumPartLength)) }
        self.message = message
    }

    public var description: String {
        (line.map { "Line \($0): " } ?? "") + (part.map { "\($0): \(message)" } ?? message)
    }

    /// This error, placed at `line` unless it already names one.
    func at(line: Int) -> RecurrenceError {
        var placed = self
        placed.line = self.line ?? line
        return placed
    }

    static func malformed(_ part: String?, _ message: String) -> RecurrenceError {
        RecurrenceError(code: .malformed, part: part, message: message)
    }

    static func unsupported(_ part: String?, _ message: String) -> RecurrenceError {
        RecurrenceError(code: .unsupported, part: part, message: message)
    }
}

extension RecurrenceError {
    /// The error as a problem of input `field`, its message naming the part that was refused:
    /// `TOO_LONG` beyond a limit, `UNKNOWN_VALUE` for a `TZID` the system does not know,
    /// `INVALID_FORMAT` otherwise.
    public func problem(field: String) -> FieldProblem {
        let reason: FieldProblem.Reason =
            switch code {
            case .limitExceeded: .tooLong
            case .unknownTimeZone: .unknownValue
            case .malformed, .unsupported: .invalidFormat
            }
        return FieldProblem(field: field, reason: reason, message: description)
    }
}
