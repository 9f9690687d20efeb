/// A file part of a GraphQL multipart request: the value behind an `Upload` variable.
public struct UploadedFile: Sendable, Equatable {
    /// The part's name, the key of the request's `map`.
    public var name: String
    /// The file name the client gave, informative only.
    public var filename: String?
    /// The media type the client declared, informative only (content decides).
    public var contentType: String?
    /// The file's bytes.
    public var bytes: [UInt8]

    /// Creates a file.
    public init(name: String, filename: String? = nil, contentType: String? = nil, bytes: [UInt8]) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.bytes = bytes
    }
}
