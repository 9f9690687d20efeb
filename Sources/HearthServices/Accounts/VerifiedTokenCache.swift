import Synchronization

/// Access tokens whose signature, issuer and audience were checked, with their claims, so a
/// client sending the same token on every request pays for the JWT parsing once.
///
/// Only verified claims are stored, keyed by the full token text, so a forged token can never
/// hit. Expiry and the session's state are still checked on every use. Bounded: when full it
/// starts afresh (entries are cheap to recompute).
final class VerifiedTokenCache: Sendable {
    private let entries = Mutex<[Key: AccessTokenClaims]>([:])
    private let capacity: Int

    init(capacity: Int = 50_000) {
        self.capacity = capacity
    }

    /// The claims of `token` if it was verified before.
    func claims(of token: String) -> AccessTokenClaims? {
        entries.withLock { $0[Key(token: token)] }
    }

    /// Remembers that `token` verified with `claims`.
    func remember(_ claims: AccessTokenClaims, for token: String) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[Key(token: token)] = claims
        }
    }

    /// A token as a dictionary key, hashed on its last bytes only: they belong to the
    /// signature, an HMAC output that already tells tokens apart, so a lookup does not hash
    /// the whole few hundred bytes of the token. Equality still compares the full text.
    struct Key: Hashable {
        static let hashedSuffixLength = 32
        let token: String

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.token == rhs.token
        }

        func hash(into hasher: inout Hasher) {
            var token = token
            token.withUTF8 { bytes in
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.suffix(Self.hashedSuffixLength))))
            }
        }
    }
}
