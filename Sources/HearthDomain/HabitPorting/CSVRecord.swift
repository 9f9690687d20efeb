/// Comma-separated values as RFC 4180 writes them: fields separated by commas, records ended by
/// CRLF, a field quoted (with its quotes doubled) when it holds a comma, a quote, a CR or an LF,
/// or begins or ends with a space (so spreadsheet programs keep the spaces). Exports write UTF-8
/// with a header record and say so in their media type, `text/csv; charset=utf-8; header=present`.
public enum CSVRecord {
    /// The media type of the CSV files exports write (RFC 4180 §3, with its `header` parameter).
    public static let mediaType = "text/csv; charset=utf-8; header=present"

    /// One record: the fields, each quoted if it must be, and CRLF.
    public static func encode(_ fields: [String]) -> [UInt8] {
        var output: [UInt8] = []
        for (index, field) in fields.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            appendField(field, to: &output)
        }
        output.append(contentsOf: [0x0D, 0x0A])
        return output
    }

    private static func appendField(_ field: String, to output: inout [UInt8]) {
        let utf8 = field.utf8
        let needsQuotes = utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A }
            || utf8.first == UInt8(ascii: " ") || utf8.last == UInt8(ascii: " ")
        guard needsQuotes else {
            output.append(contentsOf: utf8)
            return
        }
        output.append(UInt8(ascii: "\""))
        for byte in utf8 {
            if byte == UInt8(ascii: "\"") { output.append(byte) }
            output.append(byte)
        }
        output.append(UInt8(ascii: "\""))
    }
}
