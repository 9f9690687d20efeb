extension RecurrenceRule {
    /// DTSTART, RRULE, then one EXDATE line per zone form, values sorted.
    static func canonicalText(start: ICalendarTime, pattern: RecurrencePattern, exceptions: [ICalendarTime]) -> String {
        var lines = [propertyText("DTSTART", form: start.form) + start.text, "RRULE:" + pattern.text]
        var group: [ICalendarTime] = []
        for time in exceptions {
            if let first = group.first, first.form != time.form {
                lines.append(propertyText("EXDATE", form: first.form) + group.map(\.text).joined(separator: ","))
                group.removeAll()
            }
            group.append(time)
        }
        if let first = group.first {
            lines.append(propertyText("EXDATE", form: first.form) + group.map(\.text).joined(separator: ","))
        }
        return lines.joined(separator: "\n")
    }

    private static func propertyText(_ name: String, form: ICalendarTime.Form) -> String {
        if case .zone(let zone) = form { return name + ";TZID=" + zone + ":" }
        return name + ":"
    }
}
