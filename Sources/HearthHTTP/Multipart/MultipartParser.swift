// Pure Swift (no Glibc, no Foundation): compiled directly into the multipart fuzz target.

/// An incremental `multipart/form-data` parser (RFC 7578 over RFC 2046 §5.1): a state machine
/// that takes bytes and returns one event at a time, with no knowledge of where they come from.
///
/// The calling convention is the request parser's: the caller keeps the bytes not yet consumed
/// and calls `parse(_:)` with all of them (followed by any newly received ones); each call
/// returns how many leading bytes were consumed and at most one event, `nil` when more input is
/// needed. When the input has ended, `finish()` says whether the body was complete. The preamble
/// before the first delimiter and the epilogue after the close delimiter are ignored.
///
/// Memory stays bounded whatever the input: part content is handed out as it arrives (only a
/// possible partial delimiter, at most 73 bytes, is held back), and a header section or a
/// delimiter line is never buffered beyond ``MultipartLimits``.
public struct MultipartParser: Sendable {
    /// What the parser found.
    public enum Event: Sendable {
        /// A part begins: its header section. Content events and `.partEnd` follow.
        case part(MultipartPartHead)
        /// Part content at this range of the input given to this call.
        case content(Range<Int>)
        /// The current part is complete.
        case partEnd
        /// The close delimiter: the body is complete; anything after it is ignored.
        case end
    }

    /// The result of one `parse` call.
    public struct Output: Sendable {
        /// How many leading input bytes were consumed; the caller drops them before the next call.
        public var consumed: Int
        /// The event, or nil when more input is needed.
        public var event: Event?
    }

    private enum State: Sendable {
        case start
        case preamble
        case delimiterLine
        case headers
        case content
        case epilogue
    }

    /// The limits in force.
    public let limits: MultipartLimits
    /// `--` and the boundary, as it opens the body.
    private let dashBoundary: [UInt8]
    /// CRLF, `--` and the boundary: how a delimiter follows content.
    private let delimiter: [UInt8]
    private var state: State = .start
    private var parts = 0
    private var partBytes = 0

    /// The longest transport padding (white space) accepted after a delimiter.
    static let maxPaddingLength = 64

    /// A parser for a body whose `Content-Type` gave `boundary` (see ``boundary(fromContentType:)``).
    public init(boundary: [UInt8], limits: MultipartLimits = MultipartLimits()) {
        precondition(!boundary.isEmpty && boundary.count <= 70, "a multipart boundary has 1 to 70 characters")
        self.limits = limits
        dashBoundary = [0x2D, 0x2D] + boundary
        delimiter = [ASCII.cr, ASCII.lf] + dashBoundary
    }

    /// The boundary of a `multipart/form-data` `Content-Type` (type and parameter names in any
    /// case, the value a token or quoted string of 1 to 70 characters not ending in a space),
    /// or nil when the value is not that.
    public static func boundary(fromContentType contentType: String) -> [UInt8]? {
        let parts = contentType.split(separator: ";", omittingEmptySubsequences: false)
        guard parts[0].filter({ $0 != " " && $0 != "\t" }).lowercased() == "multipart/form-data" else { return nil }
        let parameters = MultipartPartHead.dispositionParameters("form-data" + contentType.dropFirst(parts[0].count))
        guard let boundary = parameters["boundary"].map({ Array($0.utf8) }), (1...70).contains(boundary.count),
              boundary.last != ASCII.space, boundary.allSatisfy(isBoundaryChar)
        else { return nil }
        return boundary
    }

    /// RFC 2046 `bchars`: digits, letters, `'()+_,-./:=?` and space.
    private static func isBoundaryChar(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: Array("'()+_,-./:=? ".utf8).contains(byte)
        }
    }

    /// Feeds the unconsumed input; see the type's documentation for the calling convention.
    /// - Throws: ``MultipartError``; the parser must not be used afterwards.
    public mutating func parse(_ input: UnsafeRawBufferPointer) throws(MultipartError) -> Output {
        var offset = 0
        while true {
            let rest = UnsafeRawBufferPointer(rebasing: input[offset...])
            switch state {
            case .start:
                if rest.count < dashBoundary.count {
                    // Too short to tell whether the body opens with the boundary or with a preamble.
                    if rest.elementsEqual(dashBoundary.prefix(rest.count)) { return Output(consumed: offset, event: nil) }
                    state = .preamble
                } else if rest.starts(with: dashBoundary) {
                    offset += dashBoundary.count
                    state = .delimiterLine
                } else {
                    state = .preamble
                }
            case .preamble:
                if let found = Self.find(delimiter, in: rest) {
                    offset += found + delimiter.count
                    state = .delimiterLine
                } else {
                    return Output(consumed: offset + max(0, rest.count - (delimiter.count - 1)), event: nil)
                }
            case .delimiterLine:
                if rest.count >= 2, rest[0] == 0x2D, rest[1] == 0x2D {
                    state = .epilogue
                    return Output(consumed: offset + 2, event: .end)
                }
                guard let lineFeed = rest.firstIndex(of: ASCII.lf) else {
                    if rest.count > Self.maxPaddingLength + 1 { throw MultipartError(.malformedDelimiter) }
                    return Output(consumed: offset, event: nil)
                }
                guard lineFeed >= 1, rest[lineFeed - 1] == ASCII.cr, lineFeed - 1 <= Self.maxPaddingLength,
                      rest[..<(lineFeed - 1)].allSatisfy({ $0 == ASCII.space || $0 == ASCII.tab })
                else { throw MultipartError(.malformedDelimiter) }
                parts += 1
                if parts > limits.maxParts { throw MultipartError(.tooManyParts) }
                offset += lineFeed + 1
                state = .headers
            case .headers:
                let end: Int
                if rest.starts(with: [ASCII.cr, ASCII.lf]) {
                    end = 0
                } else if let found = Self.find([ASCII.cr, ASCII.lf, ASCII.cr, ASCII.lf], in: rest) {
                    end = found + 2
                } else {
                    if rest.count > limits.maxHeaderBytes + 2 { throw MultipartError(.headersTooLarge) }
                    return Output(consumed: offset, event: nil)
                }
                if end > limits.maxHeaderBytes { throw MultipartError(.headersTooLarge) }
                let headers = try Self.headers(UnsafeRawBufferPointer(rebasing: rest[..<end]))
                partBytes = 0
                state = .content
                return Output(consumed: offset + end + 2, event: .part(MultipartPartHead(headers: headers)))
            case .content:
                let found = Self.find(delimiter, in: rest)
                if found == 0 {
                    state = .delimiterLine
                    return Output(consumed: offset + delimiter.count, event: .partEnd)
                }
                // Content up to the delimiter, or all but a tail that may begin one.
                let count = found ?? max(0, rest.count - (delimiter.count - 1))
                if count == 0 { return Output(consumed: offset, event: nil) }
                partBytes += count
                if partBytes > limits.maxPartBytes { throw MultipartError(.partTooLarge) }
                return Output(consumed: offset + count, event: .content(offset..<offset + count))
            case .epilogue:
                return Output(consumed: input.count, event: nil)
            }
        }
    }

    /// Checks that the input ended where it may: after the close delimiter.
    /// - Throws: ``MultipartError`` `truncated` otherwise.
    public func finish() throws(MultipartError) {
        guard case .epilogue = state else { throw MultipartError(.truncated) }
    }

    /// The header fields of a section (each line `name: value` with its CRLF, no obsolete folding).
    private static func headers(_ section: UnsafeRawBufferPointer) throws(MultipartError) -> HTTPHeaders {
        var fields: [HTTPHeaders.Field] = []
        var lineStart = 0
        while lineStart < section.count {
            guard let lineFeed = UnsafeRawBufferPointer(rebasing: section[lineStart...]).firstIndex(of: ASCII.lf) else {
                throw MultipartError(.malformedHeaders)
            }
            let lineEnd = lineStart + lineFeed - 1
            guard lineEnd > lineStart, section[lineEnd] == ASCII.cr else { throw MultipartError(.malformedHeaders) }
            let line = UnsafeRawBufferPointer(rebasing: section[lineStart..<lineEnd])
            guard let colon = line.firstIndex(of: ASCII.colon), colon > 0,
                  line[..<colon].allSatisfy(ASCII.isTokenChar), line[(colon + 1)...].allSatisfy(ASCII.isFieldValueChar)
            else { throw MultipartError(.malformedHeaders) }
            let value = ASCII.trimmed(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]))
            fields.append((name: String(decoding: line[..<colon], as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
            lineStart = lineEnd + 2
        }
        return HTTPHeaders(fields)
    }

    /// The offset of the first occurrence of `needle` in `haystack`.
    private static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        let first = needle[0]
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            guard let hit = UnsafeRawBufferPointer(rebasing: haystack[index...last]).firstIndex(of: first) else { return nil }
            let candidate = index + hit
            var matched = 1
            while matched < needle.count, haystack[candidate + matched] == needle[matched] { matched += 1 }
            if matched == needle.count { return candidate }
            index = candidate + 1
        }
        return nil
    }
}
