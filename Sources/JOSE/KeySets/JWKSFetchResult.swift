/// What fetching a key set returned: the JWKS document and how long it may be cached.
public struct JWKSFetchResult: Sendable {
    /// The response body, a JWKS JSON document.
    public var body: [UInt8]
    /// The freshness lifetime the provider allows; nil when it said nothing.
    public var maxAge: Duration?

    /// A result with an explicit lifetime.
    public init(body: [UInt8], maxAge: Duration?) {
        self.body = body
        self.maxAge = maxAge
    }

    /// A result whose lifetime is read from the response's `Cache-Control` header value.
    public init(body: [UInt8], cacheControl: String?) {
        self.init(body: body, maxAge: cacheControl.flatMap(CacheControl.maxAge).map { .seconds($0) })
    }
}
