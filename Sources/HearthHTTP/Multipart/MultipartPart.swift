// Pure Swift (no Glibc, no Foundation): compiled directly into the multipart fuzz target.

/// One complete part of a `multipart/form-data` body.
public struct MultipartPart: Sendable {
    /// The part's headers, name and file name.
    public var head: MultipartPartHead
    /// The part's content.
    public var body: [UInt8]

    /// Creates a part.
    public init(head: MultipartPartHead, body: [UInt8]) {
        self.head = head
        self.body = body
    }

    /// Every part of a complete `multipart/form-data` body held in memory (an `HTTPRequest`'s),
    /// in order.
    /// - Parameter contentType: The request's `Content-Type`, which carries the boundary.
    /// - Throws: ``MultipartError``: `invalidBoundary` for another content type, otherwise
    ///   whatever the parser finds wrong, or `truncated` when the close delimiter is missing.
    public static func parts(of body: [UInt8], contentType: String, limits: MultipartLimits = MultipartLimits()) throws(MultipartError) -> [MultipartPart] {
        guard let boundary = MultipartParser.boundary(fromContentType: contentType) else { throw MultipartError(.invalidBoundary) }
        var parser = MultipartParser(boundary: boundary, limits: limits)
        var parts: [MultipartPart] = []
        var offset = 0
        var ended = false
        while !ended {
            let result = body.withUnsafeBytes { buffer in
                Result { () throws(MultipartError) in try parser.parse(UnsafeRawBufferPointer(rebasing: buffer[offset...])) }
            }
            let output = try result.get()
            let base = offset
            offset += output.consumed
            switch output.event {
            case .part(let head)?:
                parts.append(MultipartPart(head: head, body: []))
            case .content(let range)?:
                parts[parts.count - 1].body.append(contentsOf: body[(base + range.lowerBound)..<(base + range.upperBound)])
            case .partEnd?:
                break
            case .end?, nil:
                ended = true
            }
        }
        try parser.finish()
        return parts
    }
}
