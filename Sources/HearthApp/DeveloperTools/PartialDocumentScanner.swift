/// A forgiving tokenizer for GraphQL documents still being typed: names, punctuators and the
/// literals between them, skipping comments and strings, and telling whether the text ends
/// inside a string or comment. Unlike the engine's lexer it never fails; the explorer only
/// needs the shape of the text to complete it and to know whether it is finished.
struct PartialDocumentScanner: Sendable {
    /// One token of the text.
    enum Token: Equatable, Sendable {
        /// A name, keyword or enum value.
        case name(String)
        /// A punctuator such as `{`, `:`, `(`, `...`, `@`, `$`.
        case punctuator(String)
        /// A number, string or other literal the completion does not look into.
        case literal
    }

    /// The tokens, in order.
    private(set) var tokens: [Token] = []
    /// Whether the text ends inside a string, block string or comment.
    private(set) var endsInsideLiteral = false
    /// Whether the text ends inside a block string (`"""`), which may span lines.
    private(set) var endsInsideBlockString = false
    /// Whether the text ends with a name character, so the last token is a name being typed.
    private(set) var endsInName = false

    /// Scans `text`.
    init(_ text: String) {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        }
        func isNameContinue(_ scalar: Unicode.Scalar) -> Bool { isNameStart(scalar) || ("0"..."9").contains(scalar) }
        while index < scalars.count {
            let scalar = scalars[index]
            endsInName = false
            if scalar == "#" {
                while index < scalars.count, scalars[index] != "\n", scalars[index] != "\r" { index += 1 }
                if index == scalars.count { endsInsideLiteral = true }
            } else if scalar == "\"" {
                let isBlock = index + 2 < scalars.count && scalars[index + 1] == "\"" && scalars[index + 2] == "\""
                index += isBlock ? 3 : 1
                var closed = false
                while index < scalars.count {
                    if scalars[index] == "\\" {
                        index += 2
                        continue
                    }
                    if isBlock {
                        if scalars[index] == "\"", index + 2 < scalars.count, scalars[index + 1] == "\"", scalars[index + 2] == "\"" {
                            index += 3
                            closed = true
                            break
                        }
                    } else if scalars[index] == "\"" {
                        index += 1
                        closed = true
                        break
                    } else if scalars[index] == "\n" {
                        break
                    }
                    index += 1
                }
                if !closed {
                    endsInsideLiteral = true
                    endsInsideBlockString = isBlock
                }
                tokens.append(.literal)
                continue
            } else if isNameStart(scalar) {
                let start = index
                while index < scalars.count, isNameContinue(scalars[index]) { index += 1 }
                var name = String.UnicodeScalarView()
                name.append(contentsOf: scalars[start..<index])
                tokens.append(.name(String(name)))
                endsInName = index == scalars.count
                continue
            } else if scalar == "-" || ("0"..."9").contains(scalar) {
                index += 1
                while index < scalars.count, isNameContinue(scalars[index]) || scalars[index] == "." || scalars[index] == "+"
                    || scalars[index] == "-" { index += 1 }
                tokens.append(.literal)
                continue
            } else if scalar == "." {
                var count = 0
                while index < scalars.count, scalars[index] == ".", count < 3 { index += 1; count += 1 }
                tokens.append(.punctuator(String(repeating: ".", count: count)))
                continue
            } else if "{}()[]:=@$!|&".unicodeScalars.contains(scalar) {
                tokens.append(.punctuator(String(scalar)))
            }
            index += 1
        }
    }

    /// Whether the text is unfinished: an open `{`, `(` or `[`, or an unterminated block string.
    /// The explorer keeps reading lines until this is false.
    static func needsContinuation(_ text: String) -> Bool {
        let scanner = PartialDocumentScanner(text)
        var depth = 0
        for token in scanner.tokens {
            switch token {
            case .punctuator("{"), .punctuator("("), .punctuator("["): depth += 1
            case .punctuator("}"), .punctuator(")"), .punctuator("]"): depth -= 1
            default: break
            }
        }
        return depth > 0 || scanner.endsInsideBlockString
    }
}
