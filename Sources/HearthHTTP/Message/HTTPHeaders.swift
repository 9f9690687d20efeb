// Pure Swift (no Glibc, no Foundation): compiled directly into the HTTP parser fuzz target.

/// An ordered list of header fields. Lookups compare names case-insensitively (ASCII), as RFC 9110 §5.1 requires;
/// duplicates are kept in arrival order.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field line.
    public typealias Field = (name: String, value: String)

    private var fields: [Field]

    /// An empty header list.
    public init() {
        fields = []
    }

    /// A header list holding `fields` in order.
    public init(_ fields: [Field]) {
        self.fields = fields
    }

    /// A header list from a literal, in source order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The number of field lines.
    public var count: Int { fields.count }

    /// Whether there are no field lines.
    public var isEmpty: Bool { fields.isEmpty }

    /// Appends a field line, keeping any existing lines of the same name.
    public mutating func add(name: String, value: String) {
        // A response's few lines are added one by one: grow once, not at each.
        if fields.count == fields.capacity { fields.reserveCapacity(Swift.max(8, 2 * fields.count)) }
        fields.append((name: name, value: value))
    }

    /// Replaces every line named `name` by one line with `value`.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        fields.append((name: name, value: value))
    }

    /// Removes every line named `name`.
    public mutating func remove(name: String) {
        fields.removeAll { HTTPHeaders.namesEqual($0.name, name) }
    }

    /// The value of the first line named `name`, or nil.
    public subscript(name: String) -> String? {
        first(name: name)
    }

    /// The value of the first line named `name`, or nil.
    public func first(name: String) -> String? {
        for field in fields where HTTPHeaders.namesEqual(field.name, name) {
            return field.value
        }
        return nil
    }

    /// The values of every line named `name`, in order.
    public func values(name: String) -> [String] {
        fields.compactMap { HTTPHeaders.namesEqual($0.name, name) ? $0.value : nil }
    }

    /// Whether a line named `name` exists.
    public func contains(name: String) -> Bool {
        fields.contains { HTTPHeaders.namesEqual($0.name, name) }
    }

    /// Iterates the field lines in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// ASCII case-insensitive comparison of two header names (header names are tokens, hence ASCII).
    /// Lengths are compared first (constant time for native strings), so looking a name up
    /// costs little per field of another name, however long the request's header lines are.
    static func namesEqual(_ lhs: String, _ rhs: String) -> Bool {
        let lhs = lhs.utf8
        let rhs = rhs.utf8
        guard lhs.count == rhs.count else { return false }
        var right = rhs.makeIterator()
        for left in lhs {
            guard let byte = right.next(), ASCII.lowercased(left) == ASCII.lowercased(byte) else { return false }
        }
        return true
    }
}

/// Byte-level helpers shared by the parser and the header utilities.
enum ASCII {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B
    static let comma: UInt8 = 0x2C

    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// RFC 9110 §5.6.2 `tchar`.
    static func isTokenChar(_ byte: UInt8) -> Bool {
        tokenTable[Int(byte)]
    }

    /// RFC 9110 §5.5 field-value characters: VCHAR, obs-text, SP and HTAB (no CR, LF, NUL or other CTLs).
    @inline(__always)
    static func isFieldValueChar(_ byte: UInt8) -> Bool {
        byte >= 0x20 ? byte != 0x7F : byte == tab
    }

    /// Whether `bytes` equals `lowercaseLiteral` ignoring ASCII case; the literal must be lowercase.
    static func equalsCaseInsensitive(_ bytes: UnsafeRawBufferPointer, _ lowercaseLiteral: StaticString) -> Bool {
        guard bytes.count == lowercaseLiteral.utf8CodeUnitCount else { return false }
        let literal = lowercaseLiteral.utf8Start
        for index in 0..<bytes.count where lowercased(bytes[index]) != literal[index] {
            return false
        }
        return true
    }

    /// Splits a comma-separated header value into trimmed, non-empty elements (RFC 9110 §5.6.1).
    static func forEachListElement(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        var start = 0
        var index = 0
        while index <= bytes.count {
            if index == bytes.count || bytes[index] == comma {
                let element = trimmed(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
                if !element.isEmpty { body(element) }
                start = index + 1
            }
            index += 1
        }
    }

    /// `bytes` without leading and trailing SP/HTAB.
    static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var lower = 0
        var upper = bytes.count
        while lower < upper, bytes[lower] == space || bytes[lower] == tab { lower += 1 }
        while upper > lower, bytes[upper - 1] == space || bytes[upper - 1] == tab { upper -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[lower..<upper])
    }

    private static let tokenTable: [Bool] = (0..<256).map { value in
        let byte = UInt8(value)
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
