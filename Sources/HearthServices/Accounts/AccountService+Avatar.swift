import FoundationEssentials
import HearthDomain
import HearthStore
import Support

extension AccountService {
    /// Makes `bytes` the viewer's avatar (FR-06) after checking them by content
    /// (``AccountsConfiguration/avatarRules``). The new picture gets a new id; the previous one
    /// is deleted in the same transaction, so its URL stops working.
    /// - Parameter field: The input path named in problems, e.g. `input.avatar`.
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT` with the image's problem (reason
    ///   `UNSUPPORTED_FORMAT`, `TOO_LARGE`, `INVALID_FORMAT` or `REQUIRED`), `UNAUTHENTICATED`
    ///   when the account is gone.
    public func setAvatar(viewer: Viewer, bytes: [UInt8], field: String = "input.avatar") async throws -> UserRecord {
        let image: ImageInfo
        do {
            image = try configuration.avatarRules.check(bytes, field: field)
        } catch {
            throw ServiceError.invalid(InputProblems([error]))
        }
        let digest = SHA256.hexDigest(of: bytes)
        let now = currentTime()
        let id = Identifier.make(now: now)
        return try await pool.write { database in
            guard let user = try UserRecord.find(id: viewer.userID, in: database) else { throw ServiceError.signedOut }
            try database.execute(
                "INSERT INTO avatars (id, user_id, media_type, width, height, sha256, bytes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [id, user.id, image.format.mediaType, image.width, image.height, digest, bytes, now])
            try Self.replaceAvatar(of: user, with: id, at: now, in: database)
            return try UserRecord.find(id: user.id, in: database)!
        }
    }

    /// Removes the viewer's avatar, if any; its URL stops working.
    /// - Throws: ``ServiceError`` `UNAUTHENTICATED` when the account is gone.
    public func removeAvatar(viewer: Viewer) async throws -> UserRecord {
        let now = currentTime()
        return try await pool.write { database in
            guard let user = try UserRecord.find(id: viewer.userID, in: database) else { throw ServiceError.signedOut }
            guard user.avatarId != nil else { return user }
            try Self.replaceAvatar(of: user, with: nil, at: now, in: database)
            return try UserRecord.find(id: user.id, in: database)!
        }
    }

    /// The avatar with `id`, read on one of the pool's readers; `nil` when there is none (never
    /// was, or was replaced or removed).
    public func avatar(id: String) async throws -> StoredAvatar? {
        try await pool.read { database in
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
    private static func replaceAvatar(of user: UserRecord, with avatarID: String?, at now: Date, in database: Database) throws {
        try database.execute("UPDATE users SET avatar_id = ?, updated_at = ? WHERE id = ?", [avatarID, now, user.id])
        if let previous = user.avatarId {
            try database.execute("DELETE FROM avatars WHERE id = ?", [previous])
        }
    }
}
