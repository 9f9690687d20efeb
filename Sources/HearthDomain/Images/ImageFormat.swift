// Pure Swift (no imports): compiled directly into the image-sniffer fuzz target.

/// The raster formats Hearth accepts for pictures, recognised by their content, never by a file
/// name or a declared type.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    /// PNG (ISO/IEC 15948).
    case png
    /// JPEG (ITU T.81), baseline or progressive, JFIF or Exif.
    case jpeg
    /// WebP, lossy (`VP8 `), lossless (`VP8L`) or extended (`VP8X`).
    case webp

    /// The media type the image is served with: `image/png`, `image/jpeg` or `image/webp`.
    public var mediaType: String { "image/\(rawValue)" }

    /// The format whose media type is `mediaType` (compared without case and parameters), or `nil`.
    public init?(mediaType: String) {
        let essence = mediaType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        switch essence.lowercased().filter({ $0 != " " && $0 != "\t" }) {
        case "image/png": self = .png
        case "image/jpeg", "image/jpg", "image/pjpeg": self = .jpeg
        case "image/webp": self = .webp
        default: return nil
        }
    }
}

/// What an image's header says: its format and size in pixels.
public struct ImageInfo: Sendable, Hashable {
    /// The format, from the magic bytes.
    public var format: ImageFormat
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int

    /// Creates the description.
    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }
}
