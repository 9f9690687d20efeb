/// The block string algorithms of the spec: BlockStringValue() for lexing, and the printing
/// rules that make a printed block string lex back to the same value.
public enum BlockString {
    @inline(__always)
    private static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// Spec BlockStringValue(): removes the common indentation of all lines but the first and
    /// the leading and trailing blank lines, then joins the lines with `\n`.
    /// - Parameter raw: The characters between the quotes with `\"""` already unescaped and
    ///   every line terminator already normalised to `\n`.
    static func value(ofRaw raw: [UInt8]) -> String {
        var lines: [Range<Int>] = []
        var lineStart = 0
        for (offset, byte) in raw.enumerated() where byte == 0x0A {
            lines.append(lineStart..<offset)
            lineStart = offset + 1
        }
        lines.append(lineStart..<raw.count)

        var commonIndent = Int.max
        var firstNonBlank: Int?
        var lastNonBlank = -1
        for (index, line) in lines.enumerated() {
            var indent = 0
            while indent < line.count && isWhitespace(raw[line.lowerBound + indent]) { indent += 1 }
            if indent == line.count { continue }
            if firstNonBlank == nil { firstNonBlank = index }
            lastNonBlank = index
            if index != 0 && indent < commonIndent { commonIndent = indent }
        }
        guard let firstNonBlank else { return "" }

        var result: [UInt8] = []
        result.reserveCapacity(raw.count)
        for index in firstNonBlank...lastNonBlank {
            if index != firstNonBlank { result.append(0x0A) }
            let line = lines[index]
            let start = index == 0 ? line.lowerBound : min(line.upperBound, line.lowerBound + commonIndent)
            result.append(contentsOf: raw[start..<line.upperBound])
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Whether `value` can be printed as a block string that lexes back to exactly `value`:
    /// no control characters other than tab and newline, no `\r`, no leading or trailing
    /// blank line, and no indentation common to all lines after the first.
    public static func isPrintable(_ value: String) -> Bool {
        if value.isEmpty { return true }
        var isEmptyLine = true
        var hasIndent = false
        var hasCommonIndent = true
        var seenNonEmptyLine = false
        for byte in value.utf8 {
            switch byte {
            case 0x00...0x08, 0x0B, 0x0C, 0x0D, 0x0E...0x1F:
                return false
            case 0x0A:
                if isEmptyLine && !seenNonEmptyLine { return false }
                seenNonEmptyLine = true
                isEmptyLine = true
                hasIndent = false
            case 0x09, 0x20:
                hasIndent = hasIndent || isEmptyLine
            default:
                hasCommonIndent = hasCommonIndent && hasIndent
                isEmptyLine = false
            }
        }
        if isEmptyLine { return false }
        if hasCommonIndent && seenNonEmptyLine { return false }
        return true
    }

    /// Prints `value` as a block string, as graphql-js's `printBlockString` does: on one line
    /// when short and simple, otherwise with the quotes on their own lines.
    /// - Parameter minimize: Never add line breaks that are not needed to preserve the value.
    public static func print(_ value: String, minimize: Bool = false) -> String {
        let escaped = value.replacing("\"\"\"", with: "\\\"\"\"")
        let lines = escaped.split(separator: "\n", omittingEmptySubsequences: false)
        let isSingleLine = lines.count == 1
        let forceLeadingNewLine = lines.count > 1 && lines.dropFirst().allSatisfy {
            guard let first = $0.utf8.first else { return true }
            return isWhitespace(first)
        }
        let hasTrailingTripleQuotes = escaped.hasSuffix("\\\"\"\"")
        let hasTrailingQuote = value.hasSuffix("\"") && !hasTrailingTripleQuotes
        let hasTrailingSlash = value.hasSuffix("\\")
        let forceTrailingNewLine = hasTrailingQuote || hasTrailingSlash
        let printAsMultipleLines = !minimize
            && (!isSingleLine || escaped.utf8.count > 70 || forceTrailingNewLine || forceLeadingNewLine
                || hasTrailingTripleQuotes)
        let skipLeadingNewLine = isSingleLine && value.utf8.first.map(isWhitespace) == true

        var result = "\"\"\""
        if (printAsMultipleLines && !skipLeadingNewLine) || forceLeadingNewLine { result += "\n" }
        result += escaped
        if printAsMultipleLines || forceTrailingNewLine { result += "\n" }
        return result + "\"\"\""
    }
}
