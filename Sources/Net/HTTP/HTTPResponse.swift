/// An HTTP/1.1 response as the ``HTTPClient`` received it.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code, e.g. 200.
    public var status: Int
    /// The header fields in order, names as the server sent them.
    public var headers: [(name: String, value: String)]
    /// The body after removing any chunked framing.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of the header `name`, compared case-insensitively
    /// (e.g. `response.header("Cache-Control")`).
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }
}
