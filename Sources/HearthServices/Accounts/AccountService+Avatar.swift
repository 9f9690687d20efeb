import FoundationEssentials
import HearthDomain
import HearthStore
import Support

extension AccountService {
    /// The avatar with `id`, read on one of the pool's readers; `nil` when there is none (never
    /// was, or was replaced or removed; without a read when `id` is not an avatar's).
    public func avatar(id: String) async throws -> StoredAvatar? {
        guard GlobalID.mayName(.avatar, id) else { return nil }
        return try await pool.read { database in
            try database.decodeOne(
                StoredAvatar.self,
                "SELECT id, user_id, media_type, width, height, sha256, bytes, created_at FROM avatars WHERE id = ?", [id])
        }
    }

    /// Where the avatar `id` is served: `<public base URL>/avatars/<id>`.
    public func avatarURL(id: String) -> String {
        mail.baseURL.url(for: "/avatars/\(id)")
    }

    /// Points `user` at `avatarID` and deletes the avatar it had.
    static func replaceAvatar(of user: UserRecord, with avatarID: String?, at now: Date, in database: Database) throws {
        try database.execute("UPDATE users SET avatar_id = ?, updated_at = ? WHERE id = ?", [avatarID, now, user.id])
        if let previous = user.avatarId {
            try database.execute("DELETE FROM avatars WHERE id = ?", [previous])
        }
    }
}
