/// Writes JSON text straight into a byte buffer, one token at a time, so that a producer
/// (the executor, `JSON.serialized`) never builds an intermediate tree.
///
/// The writer inserts commas, colons and, when `pretty`, newlines with two-space
/// indentation; the caller only says what comes next:
///
/// ```swift
/// var writer = JSONWriter()
/// writer.beginObject()
/// writer.key("data"); writer.beginObject(); writer.key("n"); writer.int(1); writer.endObject()
/// writer.endObject()
/// writer.bytes // {"data":{"n":1}}
/// ```
///
/// Strings are escaped as `JSON.stringify` does (`\"`, `\\`, `\b \f \n \r \t`, other control
/// characters as `\u00XX`; everything else, non-ASCII included, passes through as UTF-8).
/// Doubles are printed as `JSON.stringify` prints numbers (shortest round-trip digits, `1`
/// for `1.0`, `1e+21`); NaN and infinities, which JSON cannot represent, become `null`.
///
/// The writer owns its buffer and cannot be copied (pass it `inout`, or take its text with
/// `takeBytes()`): tokens are written straight into memory it manages, with no copy-on-write
/// check per token.
///
/// `@unchecked Sendable`: the only state that is not `Sendable` is the buffer pointer, which
/// no one but this writer holds. The writer is non-copyable, so sending it moves the buffer
/// with it, and two threads can never reach the same buffer.
public struct JSONWriter: ~Copyable, @unchecked Sendable {
    /// The buffer: the text is `base[..<count]`, the rest is uninitialized room that each
    /// token is written into in place, with one capacity check per token rather than one per
    /// byte. (Bytes are trivial values: writing them needs no initialization first.)
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    /// Whether to break lines and indent.
    public let pretty: Bool
    private var depth = 0
    /// Whether the current container already has an element (so the next needs a comma).
    private var hasElement = false
    /// Whether a key was just written (so the next value follows it directly).
    private var afterKey = false

    /// Creates a writer.
    /// - Parameters:
    ///   - pretty: Break lines and indent by two spaces, for people.
    ///   - capacity: Bytes to reserve up front.
    public init(pretty: Bool = false, capacity: Int = 256) {
        self.pretty = pretty
        self.capacity = Swift.max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The JSON text written so far.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Calls `body` with the text written so far, in place (valid during the call only).
    func withText<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Returns the bytes, leaving the writer empty (its buffer is kept for what comes next).
    public mutating func takeBytes() -> [UInt8] {
        let taken = bytes
        reset()
        return taken
    }

    /// Returns the bytes with `inserted` at `offset` (a `valuePlaceholder()`), in one copy of
    /// each, leaving the writer empty.
    mutating func takeBytes(inserting inserted: UnsafeBufferPointer<UInt8>, at offset: Int) -> [UInt8] {
        precondition(offset >= 0 && offset <= count, "offset out of the text")
        let taken = [UInt8](unsafeUninitializedCapacity: count + inserted.count) { buffer, initialized in
            let output = buffer.baseAddress.unsafelyUnwrapped
            output.initialize(from: base, count: offset)
            if let insertedBase = inserted.baseAddress { (output + offset).initialize(from: insertedBase, count: inserted.count) }
            (output + offset + inserted.count).initialize(from: base + offset, count: count - offset)
            initialized = buffer.count
        }
        reset()
        return taken
    }

    /// Hands over the text `range` (all of it without a copy), leaving the writer empty.
    mutating func takeText(_ range: Range<Int>) -> JSONText {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range out of the text")
        guard range == 0..<count else {
            let text = JSONText(copying: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
            reset()
            return text
        }
        let text = JSONText(taking: UnsafeMutableBufferPointer(start: base, count: count))
        capacity = 16
        base = .allocate(capacity: capacity)
        reset()
        return text
    }

    private mutating func reset() {
        count = 0
        depth = 0
        hasElement = false
        afterKey = false
    }

    // MARK: - Positions

    /// A point in the text to return to, with the writer's state there.
    struct Mark {
        fileprivate let count: Int
        fileprivate let depth: Int
        fileprivate let hasElement: Bool
        fileprivate let afterKey: Bool

        /// The length of the text at the mark.
        var offset: Int { count }
    }

    /// The current point, for `rewind(to:)`.
    var mark: Mark { Mark(count: count, depth: depth, hasElement: hasElement, afterKey: afterKey) }

    /// Drops everything written since `mark` and restores the state there.
    mutating func rewind(to mark: Mark) {
        count = mark.count
        depth = mark.depth
        hasElement = mark.hasElement
        afterKey = mark.afterKey
    }

    /// The length of the text so far.
    var byteCount: Int { count }

    /// The byte of the text at `offset`.
    func byte(at offset: Int) -> UInt8 {
        precondition(offset >= 0 && offset < count, "offset out of the text")
        return base[offset]
    }

    /// Takes a value's position (writing the separator before it) without writing the value,
    /// whose text is spliced in later; returns the offset where it goes.
    mutating func valuePlaceholder() -> Int {
        let separator = prepare()
        write(upTo: separator.maximumLength) { separator.write(to: $0) }
        return count
    }

    /// Lets the next value follow the text so far with no separator: it is a value of its
    /// own, to be spliced elsewhere.
    mutating func beginDetachedValue() {
        afterKey = true
    }

    // MARK: - Output

    /// Makes room for `maximum` more bytes and lets `body` write them at the end of the text;
    /// `body` returns how many it wrote.
    @inline(__always)
    private mutating func write(upTo maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        count += body(reserve(maximum))
    }

    /// Makes room for `maximum` more bytes and returns where the next byte goes; the caller
    /// adds what it wrote to `count`.
    @inline(__always)
    private mutating func reserve(_ maximum: Int) -> UnsafeMutablePointer<UInt8> {
        if capacity - count < maximum { grow(toHold: count + maximum) }
        return base + count
    }

    private mutating func grow(toHold needed: Int) {
        let target = Swift.max(needed, capacity * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: target)
        grown.initialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = target
    }

    /// What precedes a value, key or closing bracket: a comma, and when pretty a line break
    /// with indentation.
    private struct Separator {
        var comma: Bool
        /// The indentation depth after a line break, or `-1` for no line break.
        var indent: Int

        static let none = Separator(comma: false, indent: -1)

        /// The most bytes `write(to:)` writes.
        var maximumLength: Int { 2 + 2 * Swift.max(indent, 0) }

        @inline(__always)
        func write(to output: UnsafeMutablePointer<UInt8>) -> Int {
            var length = 0
            if comma {
                output[0] = 0x2C
                length = 1
            }
            if indent >= 0 {
                output[length] = 0x0A
                length += 1
                for _ in 0..<indent {
                    output[length] = 0x20
                    output[length + 1] = 0x20
                    length += 2
                }
            }
            return length
        }
    }

    /// Updates the state for the next value or key and returns the separator to write first.
    @inline(__always)
    private mutating func prepare() -> Separator {
        if afterKey {
            afterKey = false
            return .none
        }
        let separator = Separator(comma: hasElement, indent: pretty && depth > 0 ? depth : -1)
        hasElement = true
        return separator
    }

    /// Writes the separator and then the ASCII `text`.
    @inline(__always)
    private mutating func token(_ text: StaticString) {
        writeRaw(text, after: prepare())
    }

    @inline(__always)
    private mutating func writeRaw(_ text: StaticString, after separator: Separator) {
        let length = text.utf8CodeUnitCount
        write(upTo: separator.maximumLength + length) { output in
            let written = separator.write(to: output)
            JSONWriter.copy(text.utf8Start, count: length, to: output + written)
            return written + length
        }
    }

    // MARK: - Tokens

    /// Starts an object (`{`).
    public mutating func beginObject() {
        token("{")
        depth += 1
        hasElement = false
    }

    /// Ends the current object (`}`).
    public mutating func endObject() { end(0x7D) }

    /// Starts an array (`[`).
    public mutating func beginArray() {
        token("[")
        depth += 1
        hasElement = false
    }

    /// Ends the current array (`]`).
    public mutating func endArray() { end(0x5D) }

    private mutating func end(_ bracket: UInt8) {
        depth -= 1
        let separator = pretty && hasElement ? Separator(comma: false, indent: depth) : .none
        write(upTo: separator.maximumLength + 1) { output in
            let written = separator.write(to: output)
            output[written] = bracket
            return written + 1
        }
        hasElement = true
    }

    /// Writes an object key; the next call writes its value.
    public mutating func key(_ key: String) {
        let separator = prepare()
        writeString(key, after: separator)
        keySuffix()
    }

    /// Writes an object key given as its quoted, escaped JSON text (from `quoted(_:)`, so
    /// never empty), for keys written many times.
    mutating func key(quoted: UnsafeBufferPointer<UInt8>) {
        let separator = prepare()
        let output = reserve(separator.maximumLength + quoted.count + 2)
        let written = separator.write(to: output)
        JSONWriter.copy(quoted.baseAddress.unsafelyUnwrapped, count: quoted.count, to: output + written)
        var length = written + quoted.count
        output[length] = 0x3A
        length += 1
        if pretty {
            output[length] = 0x20
            length += 1
        }
        count += length
        afterKey = true
    }

    private mutating func keySuffix() {
        if pretty { writeRaw(": ", after: .none) } else { writeRaw(":", after: .none) }
        afterKey = true
    }

    /// Writes a string value.
    public mutating func string(_ value: String) {
        writeString(value, after: prepare())
    }

    /// Writes an integer.
    public mutating func int(_ value: Int) {
        let separator = prepare()
        write(upTo: separator.maximumLength + 20) { output in
            let written = separator.write(to: output)
            return written + JSONWriter.writeDecimal(value, to: output + written)
        }
    }

    /// Writes a double as `JSON.stringify` would; non-finite values become `null`.
    public mutating func double(_ value: Double) {
        guard value.isFinite else {
            token("null")
            return
        }
        // Below 2^53 every integral double is exactly an Int; -0.0 prints as 0, as in JavaScript.
        // (Int(_:) truncates without libm, which this module does not link.)
        if value.magnitude < 9_007_199_254_740_992, Double(Int(value)) == value {
            int(Int(value))
            return
        }
        // Swift's description has the same shortest digits; without an exponent it is also
        // laid out as JavaScript would (Swift uses exponents in a subset of the cases
        // JavaScript does), so only exponent forms need reformatting.
        // One pass over the digits' bytes decides, and writes them when no exponent is involved.
        var description = value.description
        let written = description.withUTF8 { digits -> Bool in
            var length = digits.count
            for byte in digits where byte == 0x65 { return false }
            if length >= 2, digits[length - 1] == 0x30, digits[length - 2] == 0x2E {
                length -= 2 // 2^53 prints as "9007199254740992.0"
            }
            writeRaw(UnsafeBufferPointer(rebasing: digits[..<length]), after: prepare())
            return true
        }
        guard !written else { return }
        var javaScript = JSONWriter.javaScriptNumber(value)
        let separator = prepare()
        javaScript.withUTF8 { digits in writeRaw(digits, after: separator) }
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        if value { token("true") } else { token("false") }
    }

    /// Writes a string value, or `null` for `nil`.
    mutating func optionalString(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// Writes a string value given as its quoted, escaped JSON text (from `quoted(_:)`), or
    /// `null` for `nil`.
    mutating func string(quoted text: [UInt8]?) {
        guard let text else {
            null()
            return
        }
        let separator = prepare()
        text.withUnsafeBufferPointer { writeRaw($0, after: separator) }
    }

    /// Writes `null`.
    public mutating func null() {
        token("null")
    }

    /// Writes bytes that already are one complete, valid JSON value (e.g. a cached fragment)
    /// in the position of a value. The writer does not check them.
    public mutating func rawValue(_ json: some Sequence<UInt8>) {
        let separator = prepare()
        if json.withContiguousStorageIfAvailable({ writeRaw($0, after: separator) }) == nil {
            Array(json).withUnsafeBufferPointer { writeRaw($0, after: separator) }
        }
    }

    /// Writes a whole value.
    public mutating func value(_ value: JSON) {
        switch value {
        case .null: null()
        case .bool(let boolean): bool(boolean)
        case .int(let integer): int(integer)
        case .double(let number): double(number)
        case .string(let text): string(text)
        case .array(let array):
            beginArray()
            for element in array { self.value(element) }
            endArray()
        case .object(let object):
            beginObject()
            for index in object.storedKeys.indices {
                key(object.storedKeys[index])
                self.value(object.storedValues[index])
            }
            endObject()
        }
    }

    /// A string as quoted, escaped JSON text, for `key(quoted:)`.
    static func quoted(_ string: String) -> [UInt8] {
        var writer = JSONWriter(capacity: string.utf8.count + 2)
        writer.string(string)
        return writer.takeBytes()
    }

    // MARK: - Encoding

    private mutating func writeRaw(_ bytes: UnsafeBufferPointer<UInt8>, after separator: Separator) {
        write(upTo: separator.maximumLength + bytes.count) { output in
            let written = separator.write(to: output)
            if let base = bytes.baseAddress { JSONWriter.copy(base, count: bytes.count, to: output + written) }
            return written + bytes.count
        }
    }

    /// Writes the magnitude's digits, after a `-` when negative; at most 20 bytes.
    private static func writeDecimal(_ value: Int, to output: UnsafeMutablePointer<UInt8>) -> Int {
        var length = 0
        if value < 0 {
            output[0] = 0x2D
            length = 1
        }
        var magnitude = value.magnitude
        var digitCount = 1
        var bound: UInt = 10
        while digitCount < 20, magnitude >= bound {
            digitCount += 1
            bound &*= 10
        }
        var index = length + digitCount
        repeat {
            index -= 1
            output[index] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
            magnitude /= 10
        } while magnitude > 0
        return length + digitCount
    }

    /// Copies bytes; short runs (most keys and values) byte by byte, without a call to `memmove`.
    @inline(__always)
    private static func copy(_ source: UnsafePointer<UInt8>, count: Int, to output: UnsafeMutablePointer<UInt8>) {
        if count <= 16 {
            for index in 0..<count { output[index] = source[index] }
        } else {
            output.update(from: source, count: count)
        }
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    /// Whether a UTF-8 byte must be escaped inside a JSON string.
    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C
    }

    /// Whether any byte of `utf8` must be escaped, tested eight bytes at a time (``JSONChunk``).
    @inline(__always)
    private static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return false }
        let count = utf8.count
        var index = 0
        while index + 8 <= count {
            if JSONChunk.escapes(in: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) != 0 { return true }
            index += 8
        }
        while index < count {
            if needsEscape(base[index]) { return true }
            index += 1
        }
        return false
    }

    private mutating func writeString(_ string: String, after separator: Separator) {
        if string.utf8.withContiguousStorageIfAvailable({ writeEscaped($0, after: separator) }) == nil {
            Array(string.utf8).withUnsafeBufferPointer { writeEscaped($0, after: separator) }
        }
    }

    /// Writes the separator and `utf8` as a quoted JSON string: copied as it is when nothing
    /// needs escaping (the common case), escaped byte by byte otherwise.
    private mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>, after separator: Separator) {
        let count = utf8.count
        let clean = !JSONWriter.needsEscaping(utf8)
        // An escape takes at most six bytes (`\u00XX`) for one.
        write(upTo: separator.maximumLength + 2 + (clean ? count : 6 * count)) { output in
            var length = separator.write(to: output)
            output[length] = 0x22
            length += 1
            if clean {
                if let base = utf8.baseAddress { JSONWriter.copy(base, count: count, to: output + length) }
                length += count
            } else {
                length += JSONWriter.escape(utf8, to: output + length)
            }
            output[length] = 0x22
            return length + 1
        }
    }

    private static func escape(_ utf8: UnsafeBufferPointer<UInt8>, to output: UnsafeMutablePointer<UInt8>) -> Int {
        var length = 0
        for byte in utf8 {
            guard needsEscape(byte) else {
                output[length] = byte
                length += 1
                continue
            }
            output[length] = 0x5C
            switch byte {
            case 0x22: output[length + 1] = 0x22
            case 0x5C: output[length + 1] = 0x5C
            case 0x08: output[length + 1] = 0x62
            case 0x0C: output[length + 1] = 0x66
            case 0x0A: output[length + 1] = 0x6E
            case 0x0D: output[length + 1] = 0x72
            case 0x09: output[length + 1] = 0x74
            default:
                output[length + 1] = 0x75
                output[length + 2] = 0x30
                output[length + 3] = 0x30
                output[length + 4] = hexDigits.utf8Start[Int(byte >> 4)]
                output[length + 5] = hexDigits.utf8Start[Int(byte & 0xF)]
                length += 6
                continue
            }
            length += 2
        }
        return length
    }

    /// Formats a finite double by ECMAScript's Number::toString from the shortest
    /// round-trip digits, which Swift's `description` also produces.
    static func javaScriptNumber(_ value: Double) -> String {
        if value == 0 { return "0" }
        var text = value.magnitude.description
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = String(text[..<e])
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let integerPart = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        var digits = Array(integerPart.utf8) + Array(fraction.utf8)
        // value = 0.digits × 10^point
        var point = integerPart.utf8.count + exponent
        while digits.first == 0x30 {
            digits.removeFirst()
            point -= 1
        }
        while digits.last == 0x30 { digits.removeLast() }
        let k = digits.count
        let digitText = String(decoding: digits, as: UTF8.self)
        let sign = value < 0 ? "-" : ""
        if k <= point && point <= 21 {
            return sign + digitText + String(repeating: "0", count: point - k)
        }
        if 0 < point && point <= 21 {
            return sign + String(digitText.prefix(point)) + "." + String(digitText.dropFirst(point))
        }
        if -6 < point && point <= 0 {
            return sign + "0." + String(repeating: "0", count: -point) + digitText
        }
        let exponentText = (point - 1 >= 0 ? "+" : "-") + String(abs(point - 1))
        let mantissa = k == 1 ? digitText : String(digitText.prefix(1)) + "." + String(digitText.dropFirst())
        return sign + mantissa + "e" + exponentText
    }
}

extension JSON {
    /// The value as JSON text: compact, or with `pretty` indented by two spaces.
    public func serialized(pretty: Bool = false) -> [UInt8] {
        var writer = JSONWriter(pretty: pretty)
        writer.value(self)
        return writer.takeBytes()
    }

    /// The value as compact JSON text.
    public var jsonText: String { String(decoding: serialized(), as: UTF8.self) }
}
