/// Rewrites the portable `?` placeholders of a statement into PostgreSQL's `$1…$n`.
///
/// A `?` inside a quoted string (`'…'`, with `''` escapes), a quoted identifier (`"…"`), a
/// dollar-quoted string (`$tag$…$tag$`) or a comment (`-- …`, `/* … */`, nested as PostgreSQL
/// nests them) is text, not a placeholder, and is left alone. Done once per statement text and
/// connection, when the statement is prepared.
enum PlaceholderRewriter {
    /// The rewritten SQL and the number of placeholders it holds.
    static func rewrite(_ sql: String) -> (sql: String, parameterCount: Int) {
        let bytes = Array(sql.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var count = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "?"):
                count += 1
                output.append(UInt8(ascii: "$"))
                output.append(contentsOf: String(count).utf8)
                index += 1
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                let end = endOfQuoted(bytes, from: index, quote: byte)
                output.append(contentsOf: bytes[index..<end])
                index = end
            case UInt8(ascii: "-") where next(bytes, index) == UInt8(ascii: "-"):
                let end = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                output.append(contentsOf: bytes[index..<end])
                index = end
            case UInt8(ascii: "/") where next(bytes, index) == UInt8(ascii: "*"):
                let end = endOfBlockComment(bytes, from: index)
                output.append(contentsOf: bytes[index..<end])
                index = end
            case UInt8(ascii: "$"):
                let end = endOfDollarQuoted(bytes, from: index)
                output.append(contentsOf: bytes[index..<end])
                index = end
            default:
                output.append(byte)
                index += 1
            }
        }
        return (String(decoding: output, as: UTF8.self), count)
    }

    private static func next(_ bytes: [UInt8], _ index: Int) -> UInt8? {
        index + 1 < bytes.count ? bytes[index + 1] : nil
    }

    /// The index after a quoted string or identifier opened at `start`; a doubled quote is an
    /// escaped one. An unterminated quote runs to the end (PostgreSQL then reports the error).
    private static func endOfQuoted(_ bytes: [UInt8], from start: Int, quote: UInt8) -> Int {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == quote {
                if next(bytes, index) == quote {
                    index += 2
                    continue
                }
                return index + 1
            }
            index += 1
        }
        return bytes.count
    }

    /// The index after a block comment opened at `start`, counting nested comments.
    private static func endOfBlockComment(_ bytes: [UInt8], from start: Int) -> Int {
        var depth = 0
        var index = start
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "/"), next(bytes, index) == UInt8(ascii: "*") {
                depth += 1
                index += 2
            } else if bytes[index] == UInt8(ascii: "*"), next(bytes, index) == UInt8(ascii: "/") {
                depth -= 1
                index += 2
                if depth == 0 { return index }
            } else {
                index += 1
            }
        }
        return bytes.count
    }

    /// The index after a dollar-quoted string opened at `start` (`$$…$$`, `$tag$…$tag$`), or
    /// `start + 1` when the `$` opens none (a positional parameter or part of a name).
    private static func endOfDollarQuoted(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count, isTagByte(bytes[index]) {
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "$"),
              index == start + 1 || !isDigit(bytes[start + 1]) else { return start + 1 }
        let delimiter = Array(bytes[start...index])
        var search = index + 1
        while search + delimiter.count <= bytes.count {
            if bytes[search] == UInt8(ascii: "$"), Array(bytes[search..<(search + delimiter.count)]) == delimiter {
                return search + delimiter.count
            }
            search += 1
        }
        return bytes.count
    }

    private static func isTagByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == UInt8(ascii: "_") || (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte >= 0x80
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
