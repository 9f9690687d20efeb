/// One property of iCalendar text (RFC 5545 §3.1): `NAME;PARAM=value:VALUE`, after unfolding.
struct ContentLine: Sendable {
    /// The property name, upper-case.
    let name: String
    /// The parameters in order: names upper-case, values as written without their quotes.
    let parameters: [(name: String, value: String)]
    /// Everything after the first colon outside quotes.
    let value: ArraySlice<UInt8>
    /// The line of the text (counting from 1) the property starts on, before unfolding.
    let lineNumber: Int

    /// The content lines of a recurrence's `text`, printable ASCII (see
    /// ``lines(of:allowingUTF8:)``).
    static func lines(of text: String) throws(RecurrenceError) -> [ContentLine] {
        try lines(of: Array(text.utf8), allowingUTF8: false)
    }

    /// The content lines of `bytes`: lines end in CRLF or LF; a line that starts with a space or
    /// a tab continues the previous one (RFC 5545 §3.1 folding); blank lines are skipped.
    ///
    /// - Parameter allowingUTF8: whether bytes past ASCII may appear (a calendar file's
    ///   summaries); a recurrence is ASCII.
    /// - Throws: ``RecurrenceError`` `malformed`, with the ``RecurrenceError/line`` at fault, for
    ///   control characters (and bytes past ASCII unless allowed) or a line that is not
    ///   `NAME[;PARAM=value…]:VALUE`.
    static func lines(of text: [UInt8], allowingUTF8: Bool) throws(RecurrenceError) -> [ContentLine] {
        // The unfolded text, in one buffer the lines' values share.
        var unfolded: [UInt8] = []
        var lineStarts: [(offset: Int, lineNumber: Int)] = []
        var bytes = text
        // White space around the whole text (a trailing newline, indentation) is not content.
        while let last = bytes.last, last.isASCIIWhitespace { bytes.removeLast() }
        bytes.append(UInt8(ascii: "\n"))
        unfolded.reserveCapacity(bytes.count)
        var index = bytes.firstIndex { !$0.isASCIIWhitespace } ?? bytes.count
        // The physical line being read, and the one the property being unfolded started on.
        var lineNumber = 1 + bytes[..<index].count(where: { $0 == UInt8(ascii: "\n") })
        var startLineNumber = lineNumber
        var lineStart = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\r") {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\n") else {
                    throw RecurrenceError.malformed(nil, "A carriage return must be followed by a line feed.").at(line: lineNumber)
                }
                continue
            }
            if byte == UInt8(ascii: "\n") {
                lineNumber += 1
                // A line starting with white space continues this one, minus that one character.
                if index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
                    index += 1
                    continue
                }
                // Trailing white space is not part of a value (python-dateutil strips it too).
                while unfolded.count > lineStart, unfolded[unfolded.count - 1] == UInt8(ascii: " ") || unfolded[unfolded.count - 1] == UInt8(ascii: "\t") {
                    unfolded.removeLast()
                }
                if unfolded.count > lineStart { lineStarts.append((lineStart, startLineNumber)) }
                lineStart = unfolded.count
                startLineNumber = lineNumber
                continue
            }
            guard byte == UInt8(ascii: "\t") || (byte >= 0x20 && byte < 0x7F) || (allowingUTF8 && byte >= 0x80) else {
                let message =
                    allowingUTF8
                    ? "A calendar file is UTF-8 text without control characters."
                    : "A recurrence is printable ASCII text: iCalendar lines of DTSTART, RRULE and EXDATE."
                throw RecurrenceError.malformed(nil, message).at(line: lineNumber)
            }
            unfolded.append(byte)
        }
        var lines: [ContentLine] = []
        lines.reserveCapacity(lineStarts.count)
        for (number, start) in lineStarts.enumerated() {
            let end = number + 1 < lineStarts.count ? lineStarts[number + 1].offset : unfolded.count
            do {
                lines.append(try ContentLine(unfolded[start.offset..<end], lineNumber: start.lineNumber))
            } catch {
                throw error.at(line: start.lineNumber)
            }
        }
        return lines
    }

    private init(_ bytes: ArraySlice<UInt8>, lineNumber: Int) throws(RecurrenceError) {
        self.lineNumber = lineNumber
        var position = bytes.startIndex
        func isNameByte(_ byte: UInt8) -> Bool { byte.isASCIILetterOrDigit || byte == UInt8(ascii: "-") }
        func readName() -> String {
            let start = position
            while position < bytes.endIndex, isNameByte(bytes[position]) { position += 1 }
            return String(asciiUppercasing: bytes[start..<position])
        }
        name = readName()
        guard !name.isEmpty else {
            throw .malformed(nil, "Each line is NAME:VALUE, such as RRULE:FREQ=WEEKLY.")
        }
        var parameters: [(name: String, value: String)] = []
        while position < bytes.endIndex, bytes[position] == UInt8(ascii: ";") {
            position += 1
            let parameter = readName()
            guard !parameter.isEmpty, position < bytes.endIndex, bytes[position] == UInt8(ascii: "=") else {
                throw .malformed(name, "A parameter of \(name) is NAME=value.")
            }
            position += 1
            var value: [UInt8] = []
            if position < bytes.endIndex, bytes[position] == UInt8(ascii: "\"") {
                position += 1
                while position < bytes.endIndex, bytes[position] != UInt8(ascii: "\"") {
                    value.append(bytes[position])
                    position += 1
                }
                guard position < bytes.endIndex else { throw .malformed(name, "A quoted parameter value of \(name) is not closed.") }
                position += 1
            } else {
                while position < bytes.endIndex, ![UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "\"")].contains(bytes[position]) {
                    value.append(bytes[position])
                    position += 1
                }
            }
            parameters.append((parameter, String(decoding: value, as: UTF8.self)))
        }
        guard position < bytes.endIndex, bytes[position] == UInt8(ascii: ":") else {
            throw .malformed(name, "\(name) must be followed by a colon and its value.")
        }
        self.parameters = parameters
        value = bytes[(position + 1)...]
    }
}

extension ContentLine {
    /// The line in iCalendar form, unfolded: `NAME;PARAM=value:VALUE`, a parameter value quoted
    /// when it holds a colon, semicolon or comma.
    var text: String {
        var text = name
        for (parameter, value) in parameters {
            let needsQuotes = value.contains { $0 == ":" || $0 == ";" || $0 == "," }
            text += ";" + parameter + "=" + (needsQuotes ? "\"" + value + "\"" : value)
        }
        return text + ":" + String(decoding: value, as: UTF8.self)
    }
}
