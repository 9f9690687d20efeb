// Pure Swift (no Glibc, no Foundation): compiled directly into the multipart fuzz target.

/// The bounds a ``MultipartParser`` enforces; each is inclusive.
public struct MultipartLimits: Sendable, Equatable {
    /// Most parts in one body. Default 32.
    public var maxParts: Int
    /// Largest header section of one part, in bytes, including its CRLFs. Default 8 KiB.
    public var maxHeaderBytes: Int
    /// Largest content of one part, in bytes. Default 1 MiB.
    public var maxPartBytes: Int

    /// Creates limits; the defaults are those documented on each property.
    public init(maxParts: Int = 32, maxHeaderBytes: Int = 8 * 1024, maxPartBytes: Int = 1 << 20) {
        self.maxParts = maxParts
        self.maxHeaderBytes = maxHeaderBytes
        self.maxPartBytes = maxPartBytes
    }
}
