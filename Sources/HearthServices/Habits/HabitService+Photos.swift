import FoundationEssentials
import HearthDomain
import HearthStore
import Support

/// A habit event's photo with its bytes, as `GET /habit-photos/<id>` serves it.
public struct StoredHabitPhoto: Sendable, Hashable {
    /// `pho_…`.
    public var id: String
    /// `image/png`, `image/jpeg` or `image/webp`, by content.
    public var mediaType: String
    /// The SHA-256 of the bytes, hex: the `ETag`.
    public var sha256: String
    /// The image.
    public var bytes: [UInt8]
}

extension HabitService {
    /// Stores a checked photo of the owner's and returns its id. Its event points at it in the
    /// same transaction; deleting the event or the habit deletes it (US 02.03, US 02.07).
    ///
    /// When the event's photo now, `current`, holds the same bytes, that photo is kept and its id
    /// returned: a queued upload sent again (its replay record pruned, or under another
    /// `clientMutationId`) leaves the event with the photo, id and URL it had.
    static func storePhoto(
        _ photo: (image: ImageInfo, bytes: [UInt8]), replacing current: String? = nil, _ owner: OwnerScope, at now: Date
    ) throws -> String {
        let digest = SHA256.hexDigest(of: photo.bytes)
        if let current, try owner.scalar(String.self, "SELECT sha256 FROM habit_photos WHERE id = ? AND user_id = {owner}", [current]) == digest {
            return current
        }
        let id = GlobalID.make(.habitPhoto, now: now).rawValue
        try owner.execute(
            "INSERT INTO habit_photos (id, user_id, media_type, width, height, sha256, bytes, created_at) VALUES (?, {owner}, ?, ?, ?, ?, ?, ?)",
            [id, photo.image.format.mediaType, photo.image.width, photo.image.height, digest, photo.bytes, now])
        return id
    }

    /// The photo `id` when the viewer may see the event it belongs to (``HabitAudience``);
    /// `nil` otherwise, as for an unknown id.
    public func photo(id: String, viewer: Viewer) async throws -> StoredHabitPhoto? {
        guard GlobalID.mayName(.habitPhoto, id) else { return nil }
        return try await pool.readPreferringCallingThread { database in
            try OwnerScope(Owner(viewer), database).queryOne(
                """
                SELECT p.id, p.media_type, p.sha256, p.bytes FROM habit_photos p
                JOIN habit_events e ON e.photo_id = p.id JOIN habits ON habits.id = e.habit_id
                WHERE p.id = ? AND (habits.user_id = {owner} OR \(HabitAudience.followedByScopeOwner))
                """,
                [id]
            ).map { row in
                StoredHabitPhoto(id: try row["id"], mediaType: try row["media_type"], sha256: try row["sha256"], bytes: try row["bytes"])
            }
        }
    }

    /// Where the photo `id` is served: `<public base URL>/habit-photos/<id>`.
    public func photoURL(id: String) -> String {
        households.accounts.mail.baseURL.url(for: "/habit-photos/\(id)")
    }
}
