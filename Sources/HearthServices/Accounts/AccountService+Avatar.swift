import FoundationEssentials
import HearthDomain
import HearthStore
import Support

extension AccountService {
    /// The avatar with `id`, read on one of the pool's readers; `nil` when there is none (never
    /// was, or was replaced or removed; without a read when `id` is not an avatar's). Anyone
    /// holding the avatar's URL may fetch it, like a profile picture link: the id is the secret,
    /// so this read is not scoped to an owner.
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

    /// Points `user`, the owner, at `avatarID` and deletes the avatar it had.
    static func replaceAvatar(of user: UserRecord, with avatarID: String?, at now: Date, _ owner: OwnerScope) throws {
        try owner.database.execute("UPDATE users SET avatar_id = ?, updated_at = ? WHERE id = ?", [avatarID, now, user.id])
        if let previous = user.avatarId {
            try owner.execute("DELETE FROM avatars WHERE id = ? AND user_id = {owner}", [previous])
        }
    }
}
