/// One property of iCalendar text (RFC 5545 §3.1): `NAME;PARAM=value:VALUE`, after unfolding.
struct ContentLine: Sendable {
    /// The property name, upper-case.
    let name: String
    /// The parameters in order: names upper-case, values as written without their quotes.
    let parameters: [(name: String, value: String)]
    /// Everything after the first colon outside quotes.
    let value: String

    /// The content lines of `text`: lines end in CRLF or LF; a line that starts with a space or
    /// a tab continues the previous one (RFC 5545 §3.1 folding); blank lines are skipped.
    ///
    /// - Throws: ``RecurrenceError`` `malformed` for characters outside printable ASCII or a
    ///   line that is not `NAME[;PARAM=value…]:VALUE`.
    static func lines(of text: String) throws(RecurrenceError) -> [ContentLine] {
        var unfolded: [[UInt8]] = []
        var current: [UInt8] = []
        // White space around the whole text (a trailing newline, indentation) is not content.
        var bytes = Array(text.utf8.drop(while: \.isASCIIWhitespace).reversed().drop(while: \.isASCIIWhitespace).reversed())
        bytes.append(UInt8(ascii: "\n"))
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\r") {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\n") else {
                    throw .malformed(nil, "A carriage return must be followed by a line feed.")
                }
                continue
            }
            if byte == UInt8(ascii: "\n") {
                // A line starting with white space continues this one, minus that one character.
                if index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
                    index += 1
                    continue
                }
                // Trailing white space is not part of a value (python-dateutil strips it too).
                while let last = current.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { current.removeLast() }
                if !current.isEmpty { unfolded.append(current) }
                current.removeAll(keepingCapacity: true)
                continue
            }
            guard byte == UInt8(ascii: "\t") || (byte >= 0x20 && byte < 0x7F) else {
                throw .malformed(nil, "A recurrence is printable ASCII text: iCalendar lines of DTSTART, RRULE and EXDATE.")
            }
            current.append(byte)
        }
        var lines: [ContentLine] = []
        for line in unfolded { lines.append(try ContentLine(line)) }
        return lines
    }

    private init(_ bytes: [UInt8]) throws(RecurrenceError) {
        var position = 0
        func isNameByte(_ byte: UInt8) -> Bool { byte.isASCIILetterOrDigit || byte == UInt8(ascii: "-") }
        func readName() -> String {
            let start = position
            while position < bytes.count, isNameByte(bytes[position]) { position += 1 }
            return String(decoding: bytes[start..<position], as: UTF8.self).uppercased()
        }
        name = readName()
        guard !name.isEmpty else {
            throw .malformed(nil, "Each line is NAME:VALUE, such as RRULE:FREQ=WEEKLY.")
        }
        var parameters: [(name: String, value: String)] = []
        while position < bytes.count, bytes[position] == UInt8(ascii: ";") {
            position += 1
            let parameter = readName()
            guard !parameter.isEmpty, position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
                throw .malformed(name, "A parameter of \(name) is NAME=value.")
            }
            position += 1
            var value: [UInt8] = []
            if position < bytes.count, bytes[position] == UInt8(ascii: "\"") {
                position += 1
                while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                    value.append(bytes[position])
                    position += 1
                }
                guard position < bytes.count else { throw .malformed(name, "A quoted parameter value of \(name) is not closed.") }
                position += 1
            } else {
                while position < bytes.count, ![UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "\"")].contains(bytes[position]) {
                    value.append(bytes[position])
                    position += 1
                }
            }
            parameters.append((parameter, String(decoding: value, as: UTF8.self)))
        }
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
            throw .malformed(name, "\(name) must be followed by a colon and its value.")
        }
        self.parameters = parameters
        value = String(decoding: bytes[(position + 1)...], as: UTF8.self)
    }
}
