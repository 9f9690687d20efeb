import FoundationEssentials
import HearthServices
import HearthStore
import JOSE
import Support

/// The server's secret keys, read at start from the key directory (``KeyDirectory``) and
/// generated there on first start:
///
/// - `access-token.key` signs access tokens (HS256), unless `--access-token-key-file` names
///   another file, which wins;
/// - `analytics.key` keys the hashed references of activation analytics;
/// - `link.key` makes and checks the tokens of emailed links (``LinkTokens``);
/// - `widget.key` signs the one-tap action links of widget feeds (``WidgetActionLinks``);
///   replacing it makes the links handed out so far answer 403 (widgets fetch new ones with the
///   next poll);
/// - `vapid.key` is the P-256 private key (32 bytes) that signs Web Push requests (VAPID,
///   RFC 8292); its public key is published as `pushConfiguration.vapidPublicKey`, and browsers
///   subscribe with it, so replacing it orphans every push subscription;
/// - `secrets.key` seals the secrets the database must keep (Google Calendar's refresh and access
///   tokens, PKCE verifiers: ``SecretSealer``, AES-256-GCM); losing it loses every Google
///   Calendar connection (users connect again).
///
/// Keys that older versions kept in the database are moved out first (``StoredKeys``).
struct ServerKeys: Sendable {
    /// The access-token signing key.
    var accessToken: [UInt8]
    /// The analytics reference key.
    var analytics: [UInt8]
    /// The link key.
    var link: [UInt8]
    /// The VAPID key.
    var vapid: SigningKey
    /// The key sealing stored secrets.
    var secrets: [UInt8]
    /// The widget action links' key.
    var widget: [UInt8]

    /// The key files, by what they hold.
    static let accessTokenFile = "access-token.key"
    static let analyticsFile = "analytics.key"
    static let linkFile = "link.key"
    static let vapidFile = "vapid.key"
    static let secretsFile = "secrets.key"
    static let widgetFile = "widget.key"
    /// The length of generated keys, in bytes.
    static let length = 32

    /// Prepares the key directory, moves keys out of an SQLite database (`sqlitePool`; a
    /// PostgreSQL database never held them), and reads or generates every key.
    /// - Throws: ``KeyError`` (the directory or a file is not private, a file is malformed,
    ///   the database's key disagrees with the directory's); `StoreError`.
    static func load(
        directory: KeyDirectory, accessTokenKeyFile: String?, sqlitePool: DatabasePool?, logger: Logger
    ) throws -> ServerKeys {
        try directory.prepare()
        if let sqlitePool {
            try StoredKeys.moveOut(to: directory, pool: sqlitePool, logger: logger)
        }
        func key(_ name: String) throws(KeyError) -> [UInt8] {
            let (key, isNew) = try directory.key(name, length: length)
            if isNew { logger.notice("generated a key", ["file": directory.file(name)]) }
            return key
        }
        let accessToken: [UInt8]
        if let accessTokenKeyFile {
            guard let bytes = try KeyFile.contents(at: accessTokenKeyFile, followingLinks: true) else {
                throw KeyError(code: .system, path: accessTokenKeyFile, message: "cannot read --access-token-key-file \(accessTokenKeyFile): no such file")
            }
            accessToken = try KeyFile.key(from: bytes, length: AccessTokens.keyLength, rawAllowed: true, path: accessTokenKeyFile)
        } else {
            accessToken = try key(accessTokenFile)
        }
        let vapidScalar = try key(vapidFile)
        let vapid: SigningKey
        do {
            vapid = try SigningKey.ellipticCurveP256(privateKey: vapidScalar)
        } catch {
            throw KeyError(
                code: .malformed, path: directory.file(vapidFile),
                message: "\(directory.file(vapidFile)) is not a P-256 private key (32 bytes, base64url): \(error.message)")
        }
        return ServerKeys(
            accessToken: accessToken, analytics: try key(analyticsFile), link: try key(linkFile), vapid: vapid,
            secrets: Array(try key(secretsFile).prefix(length)), widget: try key(widgetFile))
    }
}
