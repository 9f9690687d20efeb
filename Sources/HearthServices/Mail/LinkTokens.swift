import Support

/// Makes and checks the tokens of emailed links (confirm an address, reset a password, join a
/// household) so that the database never holds a usable one.
///
/// A token is `base64url(id ‖ tag)`, 64 characters: `id` is 16 random bytes, the only part
/// stored (in the row the link acts on: `email_tokens.token_id`, `invitations.token_id`);
/// `tag` is HMAC-SHA-256, under the link key, of the token's kind and `id`. The link key lives
/// in the key directory, outside the database, so a copy of the database (its write-ahead log
/// and backups included) holds ids without tags: it can neither follow a link nor make one.
/// Checking a presented token needs the key too: its tag is recomputed and compared in
/// constant time before its id is looked up.
///
/// The same key derives a token again from its row whenever the server needs the link once
/// more: the mail delivery job puts it into the message at send time (``MailOutbox`` stores
/// a placeholder), and a replayed `inviteMember` answers with it. Losing the key makes every
/// link sent so far stop working, and nothing else.
public struct LinkTokens: Sendable {
    /// What a token opens. Each kind has its own table of ids and its own tags, so a token of
    /// one kind is no token of another.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A row of `email_tokens`: confirming an address or a new address, resetting a password.
        case emailToken = "email_token"
        /// A row of `invitations`.
        case invitation
    }

    /// The link key's least length in bytes.
    public static let keyLength = 32
    /// The length of a token's id in bytes.
    static let idLength = 16
    /// The length of a token's tag in bytes.
    static let tagLength = 32
    /// The length of a token's text: `idLength + tagLength` bytes in base64url.
    static let textLength = 64

    private let key: [UInt8]

    /// Tokens under `key`.
    /// - Parameter key: At least ``keyLength`` random bytes, kept outside the database.
    public init(key: [UInt8]) {
        precondition(key.count >= Self.keyLength, "a link key needs at least \(Self.keyLength) bytes")
        self.key = key
    }

    /// A new token of `kind` with a random id.
    public func issue(_ kind: Kind) -> LinkToken {
        token(kind, id: SecureRandom.bytes(Self.idLength))
    }

    /// The token of `kind` whose id is `id`: the same every time for the same key.
    public func token(_ kind: Kind, id: [UInt8]) -> LinkToken {
        LinkToken(kind: kind, id: id, value: Base64URL.encode(id + tag(kind, id: id)))
    }

    /// The id of `presented` when it is a token of `kind` made under this key, else nil (any
    /// other text, a token of another kind or key, a changed character).
    public func id(of presented: String, as kind: Kind) -> [UInt8]? {
        guard presented.utf8.count == Self.textLength, let bytes = Base64URL.decode(presented),
              bytes.count == Self.idLength + Self.tagLength
        else { return nil }
        let id = Array(bytes.prefix(Self.idLength))
        return ConstantTime.equals(bytes.suffix(Self.tagLength), tag(kind, id: id)) ? id : nil
    }

    private func tag(_ kind: Kind, id: [UInt8]) -> [UInt8] {
        HMACSHA256.authenticationCode(key: key, message: Array("hearth link token/\(kind.rawValue)/".utf8) + id)
    }
}
