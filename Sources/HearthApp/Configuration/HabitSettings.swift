import HearthDomain
import HearthServices

/// The options of habits and habit events (``HabitsConfiguration``).
enum HabitSettings {
    /// The options that set ``HabitsConfiguration``.
    static let options: [OptionSpec] = [
        .value("--max-habit-photo-bytes", "BYTES", environment: "HEARTH_MAX_HABIT_PHOTO_BYTES", default: "65535",
               help: "The largest habit event photo kept, in bytes: 1 to 65535 (US 02.07: under 65,536); larger is refused with TOO_LARGE."),
        .value("--max-habit-map-features", "N", environment: "HEARTH_MAX_HABIT_MAP_FEATURES", default: "2000",
               help: "The most events one GeoJSON map of the habit history holds (the newest): 1 to 100000."),
        .value("--max-habits-per-user", "N", environment: "HEARTH_MAX_HABITS_PER_USER", default: "500",
               help: "The most habits one user may have; one more is CONFLICT LIMIT_REACHED: 1 to 100000."),
    ]

    /// The configuration the options give.
    /// - Throws: `UsageError` for a value out of range.
    static func configuration(_ options: ParsedOptions) throws -> HabitsConfiguration {
        let defaults = HabitsConfiguration()
        let photoBytes = try options.byteCount("--max-habit-photo-bytes", in: 1...HabitsConfiguration.maximumPhotoBytes)
        return HabitsConfiguration(
            photoRules: photoBytes.map { ImageRules(maximumBytes: $0) } ?? defaults.photoRules,
            maximumMapFeatures: try options.integer("--max-habit-map-features", in: 1...100_000) ?? defaults.maximumMapFeatures,
            maximumHabitsPerUser: try options.integer("--max-habits-per-user", in: 1...100_000) ?? defaults.maximumHabitsPerUser)
    }
}
