// Pure Swift (no Glibc, no Foundation): compiled directly into the HTTP parser fuzz target.

/// A body limit for some requests instead of `HTTPParserConfiguration.maxBodyBytes`, e.g. a
/// larger one for uploads. It applies to requests with this method and path and, when
/// ``mediaType`` is set, a `Content-Type` of that media type (parameters ignored, any case).
/// The limit is known when the head is complete, so an oversized `Content-Length` is refused
/// with 413 before any of the body is read (and before `100 Continue`).
public struct BodyLimitRule: Sendable, Equatable {
    /// The method the rule applies to.
    public var method: HTTPMethod
    /// The exact path (without query) the rule applies to.
    public var path: String
    /// The media type the rule applies to, lowercase (`multipart/form-data`), or nil for any.
    public var mediaType: String?
    /// The largest body of a matching request, in bytes.
    public var maxBodyBytes: Int

    /// Creates a rule.
    public init(method: HTTPMethod, path: String, mediaType: String? = nil, maxBodyBytes: Int) {
        self.method = method
        self.path = path
        self.mediaType = mediaType?.lowercased()
        self.maxBodyBytes = maxBodyBytes
    }

    /// Whether the rule applies to a request with this method, path and `Content-Type` value.
    func matches(method: HTTPMethod, path: Substring, contentType: String?) -> Bool {
        guard method == self.method, path == self.path[...] else { return false }
        guard let mediaType else { return true }
        guard let contentType else { return false }
        return MediaType.essence(of: contentType, is: mediaType)
    }
}
