import FoundationEssentials
import GraphQL
import HearthServices
import HearthStore
import Support

/// `hearth report activation`: the activation KPI of onboarding.md over a database's
/// analytics events, for people (text) or scripts (`--json`).
enum ReportCommand: Command {
    static let name = "report"
    static let summary = "Print the activation report (the onboarding KPI) from the analytics events"
    static let usage = """
    Usage: hearth report activation [--since DATE] [--until DATE] [--json] [--database PATH]

    The cohort is the households created in the window (--since inclusive, --until
    exclusive; a date YYYY-MM-DD is midnight UTC, or give a timestamp such as
    2026-11-01T12:00:00Z) whose setup wizard was seen opening (onboarding_started).
    A household is activated when its wizard was completed and its first chore
    completed, both within 72 hours of that opening; the target is 65 %. Also printed:
    how far households get through each wizard step, and the share that skipped the
    economy step (flagged above 20 %). Only events of accounts that allowed analytics
    exist; households created in the last 72 hours may still activate.
    The database is only read.
    """
    static let options: [OptionSpec] = [
        .value("--since", "DATE", help: "The first creation time included (default: the beginning)."),
        .value("--until", "DATE", help: "The first creation time excluded (default: no end)."),
        .toggle("--json", help: "Print the report as one JSON object instead of text."),
    ] + DatabaseSettings.options

    static func run(_ options: ParsedOptions, environment: [String: String]) throws -> Int32 {
        guard options.positional == ["activation"] else { throw UsageError(message: "expected 'activation'") }
        let since = try date(options, "--since")
        let until = try date(options, "--until")
        if let since, let until, since >= until { throw UsageError(message: "--since must be before --until") }
        let report = try DatabaseSettings(options).readExisting { try ActivationReport.compute(since: since, until: until, in: $0) }
        print(try options.isOn("--json") ? json(report).jsonText : text(report), terminator: "\n")
        return 0
    }

    /// The date of `flag`: `YYYY-MM-DD` (midnight UTC) or an ISO 8601 timestamp.
    private static func date(_ options: ParsedOptions, _ flag: String) throws -> Date? {
        guard let text = options.string(flag) else { return nil }
        let timestamp = text.count == 10 ? text + "T00:00:00Z" : text
        guard text.first?.isNumber == true, let date = Date.fromDatabaseValue(.text(timestamp)) else {
            throw UsageError(message: "\(flag) expects a date such as 2026-11-01 or 2026-11-01T12:00:00Z, got '\(text)'")
        }
        return date
    }

    /// The report for people.
    static func text(_ report: ActivationReport) -> String {
        let window = "households created \(report.since.map(timestamp) ?? "from the beginning")"
            + (report.until.map { " until \(timestamp($0))" } ?? "")
        var lines = ["Activation report (\(window))"]
        guard report.cohort > 0 else {
            lines.append("No data: no household in this window was created after its setup wizard was seen opening.")
            return lines.joined(separator: "\n")
        }
        let target = report.meetsTarget == true ? "target \(percent(ActivationReport.targetRate)) met" : "below the target of \(percent(ActivationReport.targetRate))"
        lines += [
            "Cohort: \(report.cohort) household\(report.cohort == 1 ? "" : "s") (wizard opened, household created)",
            "Activated within 72 h: \(report.activated) = \(percent(report.activationRate)) (\(target))",
            "  wizard completed: \(report.completedWizard), first chore completed: \(report.completedFirstChore) (at any time)",
            "Households completing each step:",
        ]
        for reach in report.steps {
            lines.append("  \(reach.step.index + 1). \(reach.step.rawValue.rightPadded(to: 10))"
                + "\(String(reach.households).leftPadded(to: 6))  \(percent(reach.rate).leftPadded(to: 6))")
        }
        let guardrail = report.isEconomySkipRateFlagged
            ? "FLAGGED: above \(percent(ActivationReport.economySkipRateLimit)), review the default currency per token"
            : "within the \(percent(ActivationReport.economySkipRateLimit)) guardrail"
        lines.append("Economy step skipped: \(report.skippedEconomy) = \(percent(report.economySkipRate)) (\(guardrail))")
        return lines.joined(separator: "\n")
    }

    /// The report for scripts: counts, rates (`null` for an empty cohort), limits and flags.
    static func json(_ report: ActivationReport) -> JSON {
        func rate(_ value: Double?) -> JSON { value.map(JSON.double) ?? .null }
        let steps = report.steps.map { reach -> JSON in
            .object(["step": .string(reach.step.rawValue), "households": .int(reach.households), "rate": rate(reach.rate)])
        }
        return .object([
            "since": report.since.map { .string(timestamp($0)) } ?? .null,
            "until": report.until.map { .string(timestamp($0)) } ?? .null,
            "cohort": .int(report.cohort),
            "activated": .int(report.activated),
            "activationRate": rate(report.activationRate),
            "targetRate": .double(ActivationReport.targetRate),
            "meetsTarget": report.meetsTarget.map(JSON.bool) ?? .null,
            "completedWizard": .int(report.completedWizard),
            "completedFirstChore": .int(report.completedFirstChore),
            "steps": .array(steps),
            "skippedEconomy": .int(report.skippedEconomy),
            "economySkipRate": rate(report.economySkipRate),
            "economySkipRateLimit": .double(ActivationReport.economySkipRateLimit),
            "isEconomySkipRateFlagged": .bool(report.isEconomySkipRateFlagged),
        ])
    }

    private static func percent(_ rate: Double?) -> String {
        guard let rate else { return "n/a" }
        let tenths = Int((rate * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10) %"
    }

    private static func timestamp(_ date: Date) -> String {
        WallClock.Instant(date).iso8601
    }
}

extension String {
    /// The string right-aligned in `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }

    /// The string left-aligned in `width` characters.
    fileprivate func rightPadded(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}
