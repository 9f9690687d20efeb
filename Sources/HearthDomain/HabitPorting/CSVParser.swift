/// Reads comma-separated values per RFC 4180, and as the exporters people meet write them: LF
/// alone also ends a record (opencsv, which Loop Habit Tracker uses, writes `\n`), a leading
/// UTF-8 byte order mark is skipped, and a quote inside an unquoted field is kept as text.
/// Blank lines are dropped.
public enum CSVParser {
    /// Why a CSV file could not be read.
    public struct Failure: Error, Sendable, Equatable {
        /// The 1-based line where reading stopped.
        public let line: Int
        /// What was wrong.
        public let message: String
    }

    /// The records of `bytes` (UTF-8; invalid sequences read as U+FFFD), each a list of fields.
    /// - Throws: ``Failure`` for a quoted field that never closes or text right after a closing quote.
    public static func records(_ bytes: [UInt8]) throws(Failure) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var line = 1
        var fieldWasQuoted = false

        func endField() {
            record.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            fieldWasQuoted = false
        }
        func endRecord() {
            endField()
            if !(record.count == 1 && record[0].isEmpty) { records.append(record) }
            record.removeAll(keepingCapacity: true)
        }

        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\"") where field.isEmpty && !fieldWasQuoted:
                let quoteLine = line
                index += 1
                while true {
                    guard index < bytes.count else { throw Failure(line: quoteLine, message: "a quoted field never closes") }
                    let inner = bytes[index]
                    if inner == UInt8(ascii: "\"") {
                        if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\"") {
                            field.append(inner)
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    if inner == 0x0A { line += 1 }
                    field.append(inner)
                    index += 1
                }
                fieldWasQuoted = true
                if index < bytes.count, ![UInt8(ascii: ","), 0x0D, 0x0A].contains(bytes[index]) {
                    throw Failure(line: line, message: "text follows a closing quote")
                }
                continue
            case UInt8(ascii: ","):
                endField()
            case 0x0D where index + 1 < bytes.count && bytes[index + 1] == 0x0A:
                index += 1
                line += 1
                endRecord()
            case 0x0A:
                line += 1
                endRecord()
            default:
                field.append(byte)
            }
            index += 1
        }
        if !field.isEmpty || !record.isEmpty || fieldWasQuoted { endRecord() }
        return records
    }
}
