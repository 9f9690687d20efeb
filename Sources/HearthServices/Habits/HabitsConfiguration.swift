import HearthDomain

/// The operating limits of habits and habit events, read once at start
/// (`HabitSettings` in HearthApp: a flag and an environment variable each).
public struct HabitsConfiguration: Sendable, Hashable {
    /// The largest photo the store keeps, in bytes (US 02.07: under 65,536). The table refuses
    /// more, so this may only be lowered.
    public static let maximumPhotoBytes = 65_535

    /// What a habit event's photo must be: PNG, JPEG or WebP by content, at most
    /// ``maximumPhotoBytes`` bytes (`--max-habit-photo-bytes`) and 4096 × 4096 pixels.
    public var photoRules: ImageRules
    /// The most events one GeoJSON map of the history holds, the newest (`--max-habit-map-features`,
    /// default 2000, 1 to 100,000).
    public var maximumMapFeatures: Int
    /// The most habits one user may have (`--max-habits-per-user`, default 500, 1 to 100,000);
    /// one more is `CONFLICT` `LIMIT_REACHED`.
    public var maximumHabitsPerUser: Int

    /// Creates a configuration; the defaults are the documented ones.
    public init(
        photoRules: ImageRules = ImageRules(maximumBytes: maximumPhotoBytes), maximumMapFeatures: Int = 2000, maximumHabitsPerUser: Int = 500
    ) {
        precondition(photoRules.maximumBytes <= Self.maximumPhotoBytes, "a habit photo is stored in under 65,536 bytes")
        precondition(maximumMapFeatures > 0 && maximumHabitsPerUser > 0, "limits are positive")
        self.photoRules = photoRules
        self.maximumMapFeatures = maximumMapFeatures
        self.maximumHabitsPerUser = maximumHabitsPerUser
    }
}
