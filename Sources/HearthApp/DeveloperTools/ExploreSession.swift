import GraphQL
import Support

/// The explorer without its terminal: turns each submitted line into output, collects the
/// lines of a document until its braces balance, runs explorer commands and sends documents.
/// The interactive and the piped front ends of `hearth explore` both drive it.
struct ExploreSession {
    /// What became of a submitted line.
    enum Outcome: Equatable {
        /// Print this text (which ends with a newline, or is empty).
        case output(String)
        /// The document continues on the next line.
        case needsMore
        /// The user asked to leave.
        case quit
    }

    /// The schema from introspection.
    let schema: Schema
    /// Sends a document and returns the text to show (the pretty result or an error).
    let execute: (String) -> String
    /// The lines of a document not yet complete.
    private(set) var pendingLines: [String] = []
    /// Lines submitted so far, for `:history`.
    private(set) var history: [String]

    /// Creates a session.
    init(schema: Schema, history: [String] = [], execute: @escaping (String) -> String) {
        self.schema = schema
        self.history = history
        self.execute = execute
    }

    /// The prompt for the next line: a continuation prompt while a document is open.
    var prompt: String { pendingLines.isEmpty ? "hearth> " : "   ...> " }

    /// The completions of `lineBeforeCursor`, following the document's earlier lines.
    func complete(_ lineBeforeCursor: String) -> Completion {
        CompletionEngine(schema: schema).complete((pendingLines + [lineBeforeCursor]).joined(separator: "\n"))
    }

    /// Forgets the lines of an unfinished document (Ctrl-C).
    mutating func cancelDocument() { pendingLines = [] }

    /// Handles one line of input.
    mutating func submit(_ line: String) -> Outcome {
        let trimmed = line.trimmingWhitespace()
        if pendingLines.isEmpty {
            if trimmed.isEmpty { return .output("") }
            if trimmed.hasPrefix(":") {
                record(trimmed)
                return command(trimmed)
            }
        }
        pendingLines.append(line)
        let document = pendingLines.joined(separator: "\n")
        if PartialDocumentScanner.needsContinuation(document) { return .needsMore }
        pendingLines = []
        record(document)
        return .output(execute(document))
    }

    private mutating func record(_ entry: String) {
        if history.last != entry { history.append(entry) }
    }

    private func command(_ text: String) -> Outcome {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        switch parts[0] {
        case ":quit", ":q", ":exit": return .quit
        case ":help": return .output(Self.help)
        case ":types": return .output(typeList())
        case ":schema": return .output(printSchema(schema) + "\n")
        case ":history":
            return .output(history.enumerated().map { "\($0 + 1)  \($1)" }.joined(separator: "\n") + "\n")
        case ":describe":
            guard parts.count == 2 else { return .output("usage: :describe Type or :describe Type.field\n") }
            return .output(describe(parts[1]))
        default:
            return .output("unknown command \(parts[0]); :help lists the commands\n")
        }
    }

    static let help = """
        Type a GraphQL document to run it; it continues over several lines until its braces
        balance. Tab completes field and argument names, Up and Down browse the history.
          :describe Type        a type: its description, fields, arguments and deprecations
          :describe Type.field  one field (or input field, or enum value) in detail
          :types                every type, by kind
          :schema               the whole schema as SDL
          :history              what you ran
          :help                 this text
          :quit                 leave (or Ctrl-D)

        """

    private func typeList() -> String {
        var lines: [String] = []
        for type in schema.types.values where !type.isIntrospectionType {
            let kind = type.kindName.lowercased().replacingOccurrences(of: "_", with: " ")
            let summary = type.typeDescription.map { "  " + ($0.split(separator: "\n").first.map(String.init) ?? "") } ?? ""
            lines.append(kind.padding(to: 13) + type.name + summary)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `:describe Type` or `:describe Type.member`.
    func describe(_ coordinate: String) -> String {
        let pieces = coordinate.split(separator: ".", maxSplits: 1).map(String.init)
        guard let type = schema.type(named: pieces[0]) else { return "no type named \(pieces[0])\n" }
        if pieces.count == 1 {
            var text = printType(type) + "\n"
            if type.isAbstractType {
                let members = schema.possibleTypes(of: type).map(\.name)
                text += "\nPossible types: " + (members.isEmpty ? "none" : members.joined(separator: ", ")) + "\n"
            }
            return text
        }
        let member = pieces[1]
        switch type {
        case .object, .interface:
            guard let field = type.fields?[member] else { return "\(type.name) has no field \(member)\n" }
            var text = "\(type.name).\(field.name): \(field.type)\n"
            if let description = field.description { text += "\n" + description + "\n" }
            if !field.arguments.isEmpty {
                text += "\nArguments:\n"
                for argument in field.arguments { text += describe(argument) }
            }
            if let reason = field.deprecationReason { text += "\nDeprecated: \(reason)\n" }
            return text
        case .inputObject(let input):
            guard let field = input.fields[member] else { return "\(type.name) has no input field \(member)\n" }
            return "\(type.name).\n" + describe(field)
        case .enumType(let enumType):
            guard let value = enumType.values[member] else { return "\(type.name) has no value \(member)\n" }
            var text = "\(type.name).\(value.name)\n"
            if let description = value.description { text += "\n" + description + "\n" }
            if let reason = value.deprecationReason { text += "\nDeprecated: \(reason)\n" }
            return text
        case .scalar, .union:
            return "\(type.name) has no members to describe\n"
        }
    }

    private func describe(_ argument: InputValue) -> String {
        var text = "  \(argument.name): \(argument.type)"
        if let literal = argument.printedDefaultValue { text += " = \(literal)" }
        if let reason = argument.deprecationReason { text += "  (deprecated: \(reason))" }
        text += "\n"
        if let description = argument.description {
            for line in description.split(separator: "\n", omittingEmptySubsequences: false) { text += "      \(line)\n" }
        }
        return text
    }

}

extension String {
    /// The text without leading and trailing whitespace.
    fileprivate func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    fileprivate func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }

    fileprivate func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
