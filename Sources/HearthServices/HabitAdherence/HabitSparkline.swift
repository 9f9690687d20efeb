import Support

/// A habit's sparkline document (``AdherenceSparkline``) with the entity tag of its bytes.
public struct HabitSparkline: Sendable, Hashable {
    /// The SVG document.
    public var svg: String
    /// `"<SHA-256 of the document, hex>"`: a strong entity tag (RFC 9110 §8.8.3), equal exactly
    /// when the document is.
    public var etag: String

    /// The document and its tag.
    public init(svg: String) {
        self.svg = svg
        etag = "\"" + SHA256.hexDigest(svg) + "\""
    }
}
