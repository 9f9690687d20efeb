import HearthServices

/// The options of chore instances and completion: the planning horizon, the undo window, how
/// many occurrences one request may ask for and how many missed ones planning writes after a downtime.
enum ChoreInstanceSettings {
    /// The options that set ``InstancesConfiguration``.
    static let options: [OptionSpec] = [
        .value("--chore-horizon", "DURATION", environment: "HEARTH_CHORE_HORIZON", default: "14d",
               help: "How far ahead chore instances are stored; later ones are computed when read and stored by their first completion."),
        .value("--chore-undo-window", "DURATION", environment: "HEARTH_CHORE_UNDO_WINDOW", default: "5m",
               help: "How long after a completion its member (or recorder) may undo it with uncompleteChore; admins may any time."),
        .value("--max-chore-occurrences", "N", environment: "HEARTH_MAX_CHORE_OCCURRENCES", default: "500",
               help: "The most due times one Chore.occurrences request may ask for."),
        .value("--max-chore-missed-occurrences", "N", environment: "HEARTH_MAX_CHORE_MISSED_OCCURRENCES", default: "1000",
               help: "After a downtime, the most missed occurrences (the latest) planning writes per chore and member as overdue instances."),
        .value("--max-vacations-per-member", "N", environment: "HEARTH_MAX_VACATIONS_PER_MEMBER", default: "20",
               help: "The most vacations one member may have under way or scheduled in one household at once."),
    ]

    /// The configuration the options give.
    /// - Throws: `UsageError` for a value out of range (horizon 1 hour to 366 days, undo window up
    ///   to a day, occurrences 1 to 10,000, missed occurrences 0 to 100,000, vacations per member 1 to 1,000).
    static func configuration(_ options: ParsedOptions) throws -> InstancesConfiguration {
        var configuration = InstancesConfiguration()
        configuration.horizon = try options.duration("--chore-horizon", in: .seconds(3600)...(.seconds(366 * 86_400))) ?? configuration.horizon
        configuration.undoWindow = try options.duration("--chore-undo-window", in: .zero...(.seconds(86_400))) ?? configuration.undoWindow
        configuration.maximumOccurrences = try options.integer("--max-chore-occurrences", in: 1...10_000) ?? configuration.maximumOccurrences
        configuration.maximumMissedOccurrences =
            try options.integer("--max-chore-missed-occurrences", in: 0...100_000) ?? configuration.maximumMissedOccurrences
        configuration.maximumVacationsPerMember =
            try options.integer("--max-vacations-per-member", in: 1...1_000) ?? configuration.maximumVacationsPerMember
        return configuration
    }
}
