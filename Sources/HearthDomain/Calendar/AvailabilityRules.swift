import FoundationEssentials

/// The product rules of availability events (FR-64): what a title and a span may be.
public enum AvailabilityRules {
    /// An event's title: 1–100 characters, one line (``DisplayText``).
    public static let maximumTitleLength = 100
    /// The longest single occurrence: 366 days, so a day's calendar reads a bounded stretch of
    /// history to find the occurrences still running.
    public static let maximumSpanDays = 366

    /// `text` trimmed, when it is a valid title.
    /// - Throws: ``FieldProblem`` `REQUIRED`, `INVALID_FORMAT` or `TOO_LONG` for `field`.
    public static func title(_ text: String, field: String) throws(FieldProblem) -> String {
        try DisplayText.name(text, field: field, maximumLength: maximumTitleLength)
    }

    /// The span of a timed event from `start` to `end`, or of an all-day one from `firstDay`
    /// through `lastDay`: exactly one pair, the end after the start (the last day not before the
    /// first), at most ``maximumSpanDays`` long.
    /// - Throws: ``FieldProblem`` on `input.startsAt` (`REQUIRED` when neither pair is complete,
    ///   `NOT_ALLOWED` when both are given), or on `input.endsAt`/`input.endsOn` (`OUT_OF_RANGE`).
    public static func span(start: Date?, end: Date?, firstDay: CalendarDay?, lastDay: CalendarDay?) throws(FieldProblem) -> AvailabilityTiming.Span {
        switch (start, end, firstDay, lastDay) {
        case (let start?, let end?, nil, nil):
            guard end > start, end.timeIntervalSince(start) <= Double(maximumSpanDays * 86_400) else {
                throw FieldProblem(field: "input.endsAt", reason: .outOfRange, message: "An event ends after it starts, at most \(maximumSpanDays) days later.")
            }
            return .timed(start: start, end: end)
        case (nil, nil, let first?, let last?):
            guard last >= first, last.dayNumber - first.dayNumber < maximumSpanDays else {
                throw FieldProblem(field: "input.endsOn", reason: .outOfRange, message: "An all-day event ends on or after its first day, at most \(maximumSpanDays) days in all.")
            }
            return .allDay(first: first, last: last)
        case (nil, nil, _, _), (_, _, nil, nil):
            throw FieldProblem(
                field: "input.startsAt", reason: .required,
                message: "Give startsAt and endsAt for a timed event, or startsOn and endsOn for an all-day one.")
        default:
            throw FieldProblem(
                field: "input.startsAt", reason: .notAllowed, message: "An event is timed (startsAt, endsAt) or all-day (startsOn, endsOn), not both.")
        }
    }
}
