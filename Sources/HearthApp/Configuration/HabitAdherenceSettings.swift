import HearthServices

/// The options of habit adherence: how long a weekly series may be.
enum HabitAdherenceSettings {
    /// The options that set ``HabitAdherenceConfiguration``.
    static let options: [OptionSpec] = [
        .value("--max-adherence-weeks", "N", environment: "HEARTH_MAX_ADHERENCE_WEEKS", default: "104",
               help: "The most weeks one Habit.adherence(weeks:) series may ask for."),
    ]

    /// The configuration the options give.
    /// - Throws: `UsageError` for a value out of range (1 to 1,000 weeks).
    static func configuration(_ options: ParsedOptions) throws -> HabitAdherenceConfiguration {
        var configuration = HabitAdherenceConfiguration()
        configuration.maximumWeeks = try options.integer("--max-adherence-weeks", in: 1...1_000) ?? configuration.maximumWeeks
        return configuration
    }
}
