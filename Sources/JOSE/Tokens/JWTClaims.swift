/// The claims of a JSON Web Token (RFC 7519 §4.1), plus the OpenID Connect claims sign-in
/// needs and any other claim whose value is a string.
///
/// NumericDate claims are seconds since 1970-01-01T00:00:00Z, fractions allowed.
public struct JWTClaims: Sendable, Hashable {
    /// `iss`: who issued the token.
    public var issuer: String?
    /// `sub`: whom the token is about.
    public var subject: String?
    /// `aud`: who the token is for; a single string on the wire is a one-element array here.
    public var audience: [String]
    /// `exp`: the time from which the token must be refused.
    public var expiresAt: Double?
    /// `nbf`: the time before which the token must be refused.
    public var notBefore: Double?
    /// `iat`: when the token was issued.
    public var issuedAt: Double?
    /// `jti`: the token's unique identifier.
    public var tokenID: String?
    /// `nonce` (OpenID Connect): the value the client bound to its sign-in request.
    public var nonce: String?
    /// `email` (OpenID Connect).
    public var email: String?
    /// `email_verified` (OpenID Connect), from a boolean or the strings `"true"`/`"false"`
    /// (Apple sends strings).
    public var emailVerified: Bool?
    /// Every other claim whose value is a string (e.g. `sid`), by name. Claims of other
    /// types are not kept.
    public var additional: [String: String]

    /// Creates claims; every claim is optional.
    public init(
        issuer: String? = nil, subject: String? = nil, audience: [String] = [],
        expiresAt: Double? = nil, notBefore: Double? = nil, issuedAt: Double? = nil,
        tokenID: String? = nil, nonce: String? = nil, email: String? = nil, emailVerified: Bool? = nil,
        additional: [String: String] = [:]
    ) {
        self.issuer = issuer
        self.subject = subject
        self.audience = audience
        self.expiresAt = expiresAt
        self.notBefore = notBefore
        self.issuedAt = issuedAt
        self.tokenID = tokenID
        self.nonce = nonce
        self.email = email
        self.emailVerified = emailVerified
        self.additional = additional
    }
}

extension JWTClaims: Codable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.init(stringValue) }
        init?(intValue: Int) { nil }
    }

    private static let registered: Set<String> = [
        "iss", "sub", "aud", "exp", "nbf", "iat", "jti", "nonce", "email", "email_verified",
    ]

    /// Decodes a claims object; a registered claim of the wrong type is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        issuer = try container.decodeIfPresent(String.self, forKey: Key("iss"))
        subject = try container.decodeIfPresent(String.self, forKey: Key("sub"))
        if let single = try? container.decodeIfPresent(String.self, forKey: Key("aud")) {
            audience = [single]
        } else {
            audience = try container.decodeIfPresent([String].self, forKey: Key("aud")) ?? []
        }
        expiresAt = try container.decodeIfPresent(Double.self, forKey: Key("exp"))
        notBefore = try container.decodeIfPresent(Double.self, forKey: Key("nbf"))
        issuedAt = try container.decodeIfPresent(Double.self, forKey: Key("iat"))
        tokenID = try container.decodeIfPresent(String.self, forKey: Key("jti"))
        nonce = try container.decodeIfPresent(String.self, forKey: Key("nonce"))
        email = try container.decodeIfPresent(String.self, forKey: Key("email"))
        emailVerified = try Self.decodeLenientBool(container, Key("email_verified"))
        var additional: [String: String] = [:]
        for key in container.allKeys where !Self.registered.contains(key.stringValue) {
            if let value = try? container.decode(String.self, forKey: key) { additional[key.stringValue] = value }
        }
        self.additional = additional
    }

    private static func decodeLenientBool(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Bool? {
        if let value = try? container.decodeIfPresent(Bool.self, forKey: key) { return value }
        switch try container.decodeIfPresent(String.self, forKey: key) {
        case nil: return nil
        case "true": return true
        case "false": return false
        default:
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a boolean")
        }
    }

    /// Encodes the claims that are set; `aud` as a string when it has one element, as most
    /// issuers do; whole-second dates as integers.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(issuer, forKey: Key("iss"))
        try container.encodeIfPresent(subject, forKey: Key("sub"))
        if audience.count == 1 {
            try container.encode(audience[0], forKey: Key("aud"))
        } else if !audience.isEmpty {
            try container.encode(audience, forKey: Key("aud"))
        }
        for (name, date) in [("exp", expiresAt), ("nbf", notBefore), ("iat", issuedAt)] {
            guard let date else { continue }
            if let whole = Int64(exactly: date) {
                try container.encode(whole, forKey: Key(name))
            } else {
                try container.encode(date, forKey: Key(name))
            }
        }
        try container.encodeIfPresent(tokenID, forKey: Key("jti"))
        try container.encodeIfPresent(nonce, forKey: Key("nonce"))
        try container.encodeIfPresent(email, forKey: Key("email"))
        try container.encodeIfPresent(emailVerified, forKey: Key("email_verified"))
        for (name, value) in additional where !Self.registered.contains(name) {
            try container.encode(value, forKey: Key(name))
        }
    }
}
