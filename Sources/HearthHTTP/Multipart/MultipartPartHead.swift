// Pure Swift (no Glibc, no Foundation): compiled directly into the multipart fuzz target.

/// The header section of one part of a `multipart/form-data` body, with the
/// `Content-Disposition` parameters RFC 7578 §4.2 defines already read.
public struct MultipartPartHead: Sendable {
    /// The part's header fields in arrival order.
    public var headers: HTTPHeaders
    /// The form field's name (`Content-Disposition: form-data; name="…"`), or nil when absent.
    public var name: String?
    /// The original file name (`filename="…"`), for file parts; informative only, never a path to use.
    public var filename: String?

    /// Reads `name` and `filename` from the part's `Content-Disposition`.
    public init(headers: HTTPHeaders) {
        self.headers = headers
        let parameters = headers["Content-Disposition"].map(Self.dispositionParameters) ?? [:]
        name = parameters["name"]
        filename = parameters["filename"]
    }

    /// The part's `Content-Type`, or nil (RFC 7578 §4.4: `text/plain` is then implied).
    public var contentType: String? { headers["Content-Type"] }

    /// The parameters of a `form-data` disposition, names lowercased; values are tokens or
    /// quoted strings (backslash escapes honoured). Another disposition type yields none.
    static func dispositionParameters(_ value: String) -> [String: String] {
        var scanner = ParameterScanner(Array(value.utf8))
        guard let type = scanner.token(), type.lowercased() == "form-data" else { return [:] }
        var parameters: [String: String] = [:]
        while scanner.skip(ASCII.semicolon) {
            guard let name = scanner.token(), scanner.skip(UInt8(ascii: "=")), let value = scanner.value() else { return parameters }
            parameters[name.lowercased()] = parameters[name.lowercased()] ?? value
        }
        return parameters
    }
}

/// Reads `token`, `;`, `=` and quoted strings of a header value, skipping white space around them.
private struct ParameterScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func skipSpace() {
        while index < bytes.count, bytes[index] == ASCII.space || bytes[index] == ASCII.tab { index += 1 }
    }

    mutating func skip(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func token() -> String? {
        skipSpace()
        let start = index
        while index < bytes.count, ASCII.isTokenChar(bytes[index]) { index += 1 }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    mutating func value() -> String? {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return token() }
        index += 1
        var text: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\") where index < bytes.count:
                text.append(bytes[index])
                index += 1
            default: text.append(byte)
            }
        }
        return nil
    }
}
