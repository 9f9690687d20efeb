/// Why a zip archive could not be written or read.
public struct ZipError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, to branch on.
    public enum Code: String, Sendable, Equatable {
        /// The archive would pass a limit of the classic format (4 GiB per entry or in all,
        /// 65,535 entries, 65,535-byte names): ZIP64 is not written.
        case tooLarge = "TOO_LARGE"
        /// The bytes are not a zip archive (no end of central directory record).
        case notZip = "NOT_ZIP"
        /// The archive is damaged or uses what we do not read (ZIP64, encryption, a method
        /// other than stored or deflated, multiple disks).
        case unsupported = "UNSUPPORTED"
        /// An entry's bytes do not inflate to its recorded size and CRC-32.
        case corrupt = "CORRUPT"
        /// Writing was used out of order (data without an open entry, two entries open).
        case misuse = "MISUSE"
    }

    /// What went wrong.
    public let code: Code
    /// A sentence for logs and people.
    public let message: String

    /// An error with its code and message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
