/// A DATE or DATE-TIME value of RFC 5545 §3.3.4–3.3.5, as a property such as DTSTART, EXDATE,
/// RDATE or RECURRENCE-ID writes it.
enum ICalendarTimeValue: Hashable, Sendable {
    /// A date and a time of day (`VALUE=DATE-TIME`, the default).
    case dateTime(ICalendarTime)
    /// A whole day (`VALUE=DATE`), as a day number.
    case date(Int)
}

extension ContentLine {
    /// The comma-separated DATE-TIME (or, when `allowingDates`, DATE) values of this line, read
    /// with its `TZID` and `VALUE` parameters.
    ///
    /// - Parameters:
    ///   - allowingDates: whether `VALUE=DATE` is accepted (a calendar's all-day events); a
    ///     chore's recurrence is DATE-TIME only.
    ///   - strictParameters: whether parameters other than `TZID` and `VALUE` are refused (a
    ///     recurrence) or passed over (a calendar file, where `X-` parameters are common).
    /// - Throws: ``RecurrenceError`` naming the property: `malformed` for a value that is not a
    ///   date (and time) in the years 1900 to 9999, a zone named twice, a parameter repeated;
    ///   `unsupported` for a value type other than those allowed.
    func timeValues(allowingDates: Bool, strictParameters: Bool) throws(RecurrenceError) -> [ICalendarTimeValue] {
        let property = name
        var zone: String?
        var isDate = false
        var sawValueType = false
        for (name, value) in parameters {
            switch name {
            case "TZID" where zone == nil:
                zone = value
            case "VALUE" where !sawValueType:
                sawValueType = true
                switch value.uppercased() {
                case "DATE-TIME": break
                case "DATE" where allowingDates: isDate = true
                case "PERIOD" where allowingDates:
                    throw .unsupported(property, "\(property) values are dates or dates and times; periods are not supported.")
                default:
                    throw .unsupported(property, "\(property) is a date and a time of day (VALUE=DATE-TIME), such as 20260329T093000.")
                }
            case "TZID", "VALUE":
                throw .malformed(property, "\(property) has \(name) more than once.")
            default:
                guard !strictParameters else { throw .malformed(property, "\(property) takes only the TZID and VALUE parameters.") }
            }
        }
        let form: ICalendarTime.Form = zone.map { .zone($0) } ?? .floating
        var values: [ICalendarTimeValue] = []
        for item in value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            if isDate {
                guard let day = ICalendarTime.dayNumber(date: item) else {
                    throw .malformed(property, "\(property) is a date such as 20260329, in the years 1900 to 9999.")
                }
                values.append(.date(day))
                continue
            }
            guard let time = ICalendarTime(item, form: form) else {
                throw .malformed(property, "\(property) is a date and time such as 20260329T093000, in the years 1900 to 9999.")
            }
            guard zone == nil || time.form != .utc else {
                throw .malformed(property, "\(property) names its time zone twice, with TZID and with a trailing Z.")
            }
            values.append(.dateTime(time))
        }
        return values
    }
}
