/// Quoted-printable content transfer encoding (RFC 2045 §6.7) for UTF-8 text bodies:
/// readable where the text is ASCII, 7-bit safe everywhere, lines at most 76 characters.
enum QuotedPrintable {
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Encodes `text`; its line breaks (CRLF, LF or CR) become hard CRLF line breaks.
    static func encode(_ text: String) -> String {
        var output: [UInt8] = []
        var lines: [[UInt8]] = [[]]
        var previousWasCR = false
        for byte in text.utf8 {
            if byte == 10 && previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = byte == 13
            if byte == 10 || byte == 13 { lines.append([]) } else { lines[lines.count - 1].append(byte) }
        }
        for (number, line) in lines.enumerated() {
            if number > 0 { output += [13, 10] }
            var column = 0
            for (index, byte) in line.enumerated() {
                let isLast = index == line.count - 1
                let literal = (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "="))
                    || ((byte == 32 || byte == 9) && !isLast)
                let piece: [UInt8] = literal ? [byte] : [UInt8(ascii: "="), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]]
                // Leave room for the soft break's "=" unless this is the line's last piece.
                let limit = isLast ? 76 : 75
                if column + piece.count > limit {
                    output += [UInt8(ascii: "="), 13, 10]
                    column = 0
                }
                output += piece
                column += piece.count
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
