import FoundationEssentials
import HearthStore

/// An avatar as stored in `avatars`: the checked image and the facts it is served with.
public struct StoredAvatar: Sendable, Hashable, Decodable {
    /// The avatar's id, part of its URL. A new upload always gets a new id, so the bytes behind
    /// an id never change (they may be served with an immutable cache lifetime).
    public var id: String
    /// The account the picture belongs to.
    public var userID: String
    /// `image/png`, `image/jpeg` or `image/webp`, from the content.
    public var mediaType: String
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int
    /// The SHA-256 of ``bytes`` in lowercase hexadecimal (the `ETag`).
    public var sha256: String
    /// The image file.
    public var bytes: [UInt8]
    /// When it was uploaded.
    public var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id
        case userID = "user_id"
        case mediaType = "media_type"
        case width, height, sha256, bytes
        case createdAt = "created_at"
    }
}
