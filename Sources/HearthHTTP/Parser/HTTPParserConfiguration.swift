// Pure Swift (no Glibc, no Foundation): compiled directly into the HTTP parser fuzz target.

/// The limits and read deadlines the request parser enforces. Every limit is inclusive: a request exactly at
/// the limit is accepted, one byte (or one field, or one nanosecond) more is rejected.
public struct HTTPParserConfiguration: Sendable, Equatable {
    /// Longest request line, in bytes, excluding its CRLF. Longer lines are answered with 414. Default 8 KiB.
    public var maxRequestLineLength: Int = 8 * 1024
    /// Largest header section, in bytes, counting every field line with its CRLF but not the request line nor
    /// the final empty line. Larger sections are answered with 431. Trailers of a chunked body count against
    /// the same limit. Default 16 KiB.
    public var maxHeaderBytes: Int = 16 * 1024
    /// Most header field lines in one request (431 beyond). Default 100.
    public var maxHeaderCount: Int = 100
    /// Largest request body, in bytes, whether announced by `Content-Length` (rejected before reading it) or
    /// streamed as chunks (rejected as soon as the total would pass it). Answered with 413. Default 1 MiB.
    public var maxBodyBytes: Int = 1024 * 1024
    /// Other body limits for some requests (uploads), by method, path and media type; the first rule
    /// matching a request replaces ``maxBodyBytes`` for it. Default none.
    public var bodyLimitRules: [BodyLimitRule] = []
    /// Longest chunk-size line of a chunked body (size, extensions), excluding its CRLF; 400 beyond. Default 4 KiB.
    public var maxChunkLineLength: Int = 4 * 1024
    /// Time allowed to receive a whole request head, counted from its first byte; 408 when it passes. This is
    /// what cuts off slow-loris clients that trickle header bytes. Default 10 s.
    public var headerReadTimeout: Duration = .seconds(10)
    /// Time allowed to receive a whole request body, counted from the end of its head; 408 when it passes.
    /// Default 30 s.
    public var bodyReadTimeout: Duration = .seconds(30)

    /// The defaults documented on each property.
    public init() {}
}
