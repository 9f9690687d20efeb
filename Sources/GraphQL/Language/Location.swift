/// Where a syntax node lies in its source.
///
/// `start` and `end` are UTF-8 byte offsets (end exclusive) into `Source.bytes`; `line` and
/// `column` locate `start` the way error messages need it, computed once by the lexer so
/// that later phases never rescan the text.
public struct Location: Sendable, Hashable {
    /// Byte offset of the node's first byte.
    public let start: Int
    /// Byte offset just past the node's last byte.
    public let end: Int
    /// Line and column of `start`.
    public let sourceLocation: SourceLocation

    /// Creates a location.
    public init(start: Int, end: Int, line: Int, column: Int) {
        self.start = start
        self.end = end
        self.sourceLocation = SourceLocation(line: line, column: column)
    }

    /// Creates a location spanning from the start of `first` to the end of `last`.
    public init(from first: Location, to last: Location) {
        self.start = first.start
        self.end = last.end
        self.sourceLocation = first.sourceLocation
    }

    /// The line of `start`, starting at 1.
    public var line: Int { sourceLocation.line }
    /// The column of `start`, starting at 1, in Unicode scalars.
    public var column: Int { sourceLocation.column }
}
