import FoundationEssentials
import HearthDomain
import HearthStore

/// A habit event as stored in `habit_events` (migration 0022), with what its photo is.
public struct HabitEventRecord: Sendable, Hashable {
    /// A photo's facts, without its bytes (served at `/habit-photos/<id>`).
    public struct Photo: Sendable, Hashable {
        /// `pho_…`.
        public var id: String
        /// `image/png`, `image/jpeg` or `image/webp`, by content.
        public var mediaType: String
        /// Pixels across.
        public var width: Int
        /// Pixels down.
        public var height: Int
        /// Bytes stored.
        public var byteCount: Int
    }

    /// `hev_…`.
    public var id: String
    /// The habit it records doing.
    public var habitID: String
    /// The habit's owner.
    public var userID: String
    /// The owner's local day it counts for.
    public var occurredOn: CalendarDay
    /// When it was recorded.
    public var recordedAt: Date
    /// 0–20 characters; `""` for none.
    public var comment: String
    /// Its photo, if any.
    public var photo: Photo?
    /// Where it happened, if given.
    public var location: HabitLocation?
    /// When it last changed.
    public var updatedAt: Date

    /// The columns ``init(row:)`` reads: of `habit_events` aliased `e`, and its photo `p`
    /// (`LEFT JOIN habit_photos p ON p.id = e.photo_id`).
    static let selection = """
        e.id, e.habit_id, e.user_id, e.occurred_on, e.recorded_at, e.comment, e.photo_id, e.latitude, e.longitude, e.accuracy_meters,
        e.updated_at, p.media_type AS photo_media_type, p.width AS photo_width, p.height AS photo_height, length(p.bytes) AS photo_bytes
        """

    /// Reads an event from `row` (``selection``).
    init(row: Row) throws {
        id = try row["id"]
        habitID = try row["habit_id"]
        userID = try row["user_id"]
        occurredOn = CalendarDay(try row["occurred_on"] as String) ?? CalendarDay(dayNumber: 0)
        recordedAt = try row["recorded_at"]
        comment = try row["comment"]
        if let photoID = try row["photo_id"] as String? {
            photo = Photo(
                id: photoID, mediaType: try row["photo_media_type"], width: try row["photo_width"], height: try row["photo_height"],
                byteCount: try row["photo_bytes"])
        }
        if let latitude = try row["latitude"] as Double?, let longitude = try row["longitude"] as Double? {
            location = try? HabitLocation(latitude: latitude, longitude: longitude, accuracyMeters: try row["accuracy_meters"], field: "")
        }
        updatedAt = try row["updated_at"]
    }

    /// The viewer's own event `id`, or `nil`: what only the owner may change.
    static func findOwn(id: String, _ owner: OwnerScope) throws -> HabitEventRecord? {
        try owner.queryOne(
            "SELECT \(selection) FROM habit_events e LEFT JOIN habit_photos p ON p.id = e.photo_id WHERE e.id = ? AND e.user_id = {owner}",
            [id]
        ).map(HabitEventRecord.init(row:))
    }

    /// The events of `ids` the scope's owner may see: theirs, and those of habits other people let
    /// them see (``HabitAudience``).
    static func visible(ids: [String], _ viewer: OwnerScope) throws -> [HabitEventRecord] {
        guard !ids.isEmpty else { return [] }
        return try viewer.query(
            """
            SELECT \(selection) FROM habit_events e JOIN habits ON habits.id = e.habit_id LEFT JOIN habit_photos p ON p.id = e.photo_id
            WHERE e.id IN (\(ChoreReferences.placeholders(ids.count))) AND (habits.user_id = {owner} OR \(HabitAudience.followedByScopeOwner))
            """,
            ChoreReferences.arguments(ids)
        ).map(HabitEventRecord.init(row:))
    }
}
