import Support

/// A habit's weekly adherence as a small SVG 1.1 bar chart for widgets (US 01.08's visual
/// indicator): one bar per week, oldest on the left, its height the week's share of planned days
/// kept.
///
/// The document stands alone (no scripts, styles, fonts or links: nothing to fetch), names itself
/// for screen readers (`<title>` and a `<desc>` with every week's counts, referenced by
/// `aria-labelledby`) and is a pure function of its input, byte for byte: integer coordinates, fixed
/// attribute order. So equal data gives an equal document, and an `ETag` taken from its bytes
/// changes exactly when what it shows (or says) does. A week without a counted planned day has no
/// bar; a week at 0 shows a thin mark on the baseline, so "missed everything" and "nothing planned"
/// look different.
public enum AdherenceSparkline {
    /// The weeks a sparkline shows.
    public static let weekCount = 12
    /// Width of one week's slot, in user units.
    static let slotWidth = 10
    /// Width of a bar inside its slot.
    static let barWidth = 8
    /// Height of a full bar (a share of 1).
    static let barHeight = 30
    /// The drawing's height: the bars and a 2-unit baseline.
    static let height = barHeight + 2

    /// The SVG document for `weeks` (oldest first) of the habit titled `title`.
    public static func svg(title: String, weeks: [AdherenceWeek]) -> String {
        let width = max(weeks.count, 1) * slotWidth
        var svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(width)\" height=\"\(height)\" "
        svg += "viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-labelledby=\"title desc\">\n"
        svg += "<title id=\"title\">\(escaped(title)): planned days kept, last \(weeks.count) weeks</title>\n"
        svg += "<desc id=\"desc\">\(escaped(description(of: weeks)))</desc>\n"
        svg += "<rect x=\"0\" y=\"\(barHeight)\" width=\"\(width)\" height=\"2\" fill=\"#d0d7de\"/>\n"
        for (index, week) in weeks.enumerated() {
            guard let share = week.share else { continue }
            let barTop = barHeight - max(Int((share * Double(barHeight)).rounded()), 1)
            svg += "<rect x=\"\(index * slotWidth + 1)\" y=\"\(barTop)\" width=\"\(barWidth)\" height=\"\(barHeight - barTop)\" "
            svg += "fill=\"\(share == 0 ? "#cf222e" : "#2da44e")\"/>\n"
        }
        svg += "</svg>\n"
        return svg
    }

    /// Each week's counts in words, oldest first, for screen readers (and for the `ETag`: a change
    /// in any count changes the document even where the bar's height rounds alike).
    static func description(of weeks: [AdherenceWeek]) -> String {
        weeks.map { week in
            let counts = week.plannedDays == 0 ? "nothing planned" : "\(week.keptDays) of \(week.plannedDays) planned days kept"
            let extra = week.unplannedDaysDone == 0 ? "" : ", \(week.unplannedDaysDone) more done off the plan"
            return "Week of \(CalendarDay(dayNumber: week.startsOn)): \(counts)\(extra)."
        }.joined(separator: " ")
    }

    /// `text` safe as XML character data and attribute values: markup characters escaped as in
    /// HTML (``HTMLEscaping``), line breaks and tabs read as spaces, and the characters XML 1.0
    /// forbids (the other controls, U+FFFE, U+FFFF) dropped.
    static func escaped(_ text: String) -> String {
        var allowed = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: allowed.append(" ")
            case 0..<0x20, 0xFFFE, 0xFFFF: continue
            default: allowed.append(scalar)
            }
        }
        return HTMLEscaping.escape(String(allowed))
    }
}
