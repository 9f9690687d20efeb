// Pure Swift (no imports): compiled directly into the image-sniffer fuzz target.

/// What an uploaded picture must be: a PNG, JPEG or WebP file (by content) of at most
/// ``maximumBytes`` bytes and ``maximumWidth`` × ``maximumHeight`` pixels, at least 1 × 1.
public struct ImageRules: Sendable, Hashable {
    /// The largest file, in bytes. Default 1 MiB.
    public var maximumBytes: Int
    /// The most pixels across. Default 4096.
    public var maximumWidth: Int
    /// The most pixels down. Default 4096.
    public var maximumHeight: Int

    /// Creates rules; the defaults are those documented on each property.
    public init(maximumBytes: Int = 1 << 20, maximumWidth: Int = 4096, maximumHeight: Int = 4096) {
        precondition(maximumBytes > 0 && maximumWidth > 0 && maximumHeight > 0, "image limits are positive")
        self.maximumBytes = maximumBytes
        self.maximumWidth = maximumWidth
        self.maximumHeight = maximumHeight
    }

    /// Checks `bytes` by content; a file name or declared media type plays no part.
    /// - Parameter field: The input path named in the problem, e.g. `input.avatar`.
    /// - Returns: The image's format and dimensions.
    /// - Throws: ``FieldProblem`` with reason `REQUIRED` (empty), `TOO_LARGE` (too many bytes,
    ///   checked before anything is parsed, or too many pixels across or down),
    ///   `UNSUPPORTED_FORMAT` (not PNG, JPEG or WebP) or `INVALID_FORMAT` (a truncated or
    ///   corrupt header, or a zero dimension).
    public func check(_ bytes: [UInt8], field: String) throws(FieldProblem) -> ImageInfo {
        if bytes.isEmpty { throw FieldProblem(field: field, reason: .required, message: "Choose an image.") }
        if bytes.count > maximumBytes {
            throw FieldProblem(
                field: field, reason: .tooLarge,
                message: "The image has \(bytes.count) bytes; at most \(maximumBytes) are allowed.")
        }
        let info: ImageInfo
        switch ImageSniffer.sniff(bytes) {
        case .unrecognized:
            throw FieldProblem(field: field, reason: .unsupportedFormat, message: "Upload a PNG, JPEG or WebP image.")
        case .malformed(let format):
            throw FieldProblem(
                field: field, reason: .invalidFormat, message: "The \(format.rawValue.uppercased()) file is damaged or incomplete.")
        case .image(let image):
            info = image
        }
        if info.width < 1 || info.height < 1 {
            throw FieldProblem(field: field, reason: .invalidFormat, message: "The image has no pixels.")
        }
        if info.width > maximumWidth || info.height > maximumHeight {
            throw FieldProblem(
                field: field, reason: .tooLarge,
                message: "The image is \(info.width)×\(info.height) pixels; at most \(maximumWidth)×\(maximumHeight) are allowed.")
        }
        return info
    }
}
