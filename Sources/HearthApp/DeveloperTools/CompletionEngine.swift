import GraphQL

/// The completions of the word before the cursor.
struct Completion: Equatable, Sendable {
    /// How many characters before the cursor the completion replaces (the word typed so far).
    let replacing: Int
    /// The candidate words, each starting with the word typed so far, in schema order.
    let candidates: [String]

    /// The longest text every candidate starts with.
    var commonPrefix: String {
        guard var prefix = candidates.first else { return "" }
        for candidate in candidates.dropFirst() {
            while !candidate.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }
}

/// Type-aware completion for the explorer: explorer commands at the start of the input,
/// type and field names after `:describe`, and inside a GraphQL document the field names of
/// the type whose selection set the cursor is in, argument names inside `(`, enum values for
/// an enum argument, type names after `... on` and directive names after `@`.
///
/// The document is followed with a lightweight scan (`PartialDocumentScanner`) rather than
/// parsed, so unfinished documents complete too.
struct CompletionEngine: Sendable {
    /// The explorer's commands, with their leading colon.
    static let commands = [":describe", ":types", ":schema", ":history", ":help", ":quit"]
    /// The words that start a top-level definition.
    static let keywords = ["query", "mutation", "subscription", "fragment"]

    /// The schema the completions come from.
    let schema: Schema

    /// Completes `text`, which ends at the cursor: earlier continuation lines of the document
    /// joined with newlines, then the current line up to the cursor.
    func complete(_ text: String) -> Completion {
        let trimmed = text.drop { $0.isWhitespace }
        if trimmed.hasPrefix(":") { return completeCommand(String(trimmed)) }
        let scanner = PartialDocumentScanner(text)
        if scanner.endsInsideLiteral { return Completion(replacing: 0, candidates: []) }
        var tokens = scanner.tokens
        var prefix = ""
        if scanner.endsInName, case .name(let name) = tokens.last {
            prefix = name
            tokens.removeLast()
        }
        let words = candidates(after: tokens)
        return Completion(replacing: prefix.count, candidates: words.filter { $0.hasPrefix(prefix) })
    }

    private func completeCommand(_ text: String) -> Completion {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        if parts.count == 1 {
            return Completion(replacing: text.count, candidates: Self.commands.filter { $0.hasPrefix(text) })
        }
        guard parts[0] == ":describe", parts.count == 2 else { return Completion(replacing: 0, candidates: []) }
        let word = String(parts[1])
        if let dot = word.firstIndex(of: ".") {
            let fieldPrefix = String(word[word.index(after: dot)...])
            guard let type = schema.type(named: String(word[..<dot])) else { return Completion(replacing: 0, candidates: []) }
            return Completion(replacing: fieldPrefix.count, candidates: memberNames(of: type).filter { $0.hasPrefix(fieldPrefix) })
        }
        let names = schema.types.keys.filter { !$0.hasPrefix("__") && $0.hasPrefix(word) }
        return Completion(replacing: word.count, candidates: names)
    }

    /// Field, input field or enum value names of a type, for `:describe Type.`.
    private func memberNames(of type: NamedType) -> [String] {
        switch type {
        case .object, .interface: type.fields?.keys ?? []
        case .inputObject(let input): input.fields.keys
        case .enumType(let enumType): enumType.values.keys
        case .scalar, .union: []
        }
    }

    /// What may follow `tokens`.
    private func candidates(after tokens: [PartialDocumentScanner.Token]) -> [String] {
        var state = ScanState(schema: schema)
        for token in tokens { state.consume(token) }
        return state.candidates()
    }
}

/// Follows a partial document token by token: the stack of selection-set types, the field
/// or directive whose arguments are open, and what the last tokens expect next.
private struct ScanState {
    let schema: Schema
    /// The parent type of each open selection set, innermost last; nil where it is unknown.
    var selectionTypes: [NamedType?] = []
    /// The root or fragment type the next top-level `{` opens.
    var pendingType: NamedType?
    /// The field (or directive) arguments belong to, after its name.
    var lastArguments: [InputValue] = []
    /// The field last named in the current selection set (for a `{` that follows it).
    var lastField: SchemaField?
    /// The type named after `on` (for a `{` that follows it).
    var typeCondition: NamedType?
    var previous: PartialDocumentScanner.Token?
    var beforePrevious: PartialDocumentScanner.Token?
    /// Open `(` of arguments or variable definitions.
    var parenthesesDepth = 0
    /// The arguments being written and the names already used.
    var openArguments: [InputValue]?
    var usedArguments: Set<String> = []
    var currentArgument: InputValue?
    /// Open `{` and `[` inside an argument value.
    var valueDepth = 0
    /// Whether the next token inside arguments is a value (after `:`).
    var expectsValue = false

    init(schema: Schema) { self.schema = schema }

    mutating func consume(_ token: PartialDocumentScanner.Token) {
        defer {
            beforePrevious = previous
            previous = token
        }
        if parenthesesDepth > 0 {
            consumeInsideParentheses(token)
            return
        }
        switch token {
        case .name(let name):
            if selectionTypes.isEmpty {
                consumeTopLevel(name)
            } else if previous == .punctuator("...") {
                if name != "on" { lastField = nil }
            } else if previous == .name("on"), beforePrevious == .punctuator("...") {
                typeCondition = schema.type(named: name)
            } else if previous == .punctuator("@") {
                lastField = nil
                lastArguments = schema.directive(named: name)?.arguments ?? []
            } else {
                let parent = selectionTypes.last ?? nil
                lastField = parent.flatMap { schema.field(named: name, on: $0) }
                lastArguments = lastField?.arguments ?? []
                typeCondition = nil
            }
        case .punctuator("{"):
            if selectionTypes.isEmpty {
                selectionTypes.append(pendingType ?? schema.queryType.map(NamedType.object))
                pendingType = nil
            } else {
                selectionTypes.append(typeCondition ?? lastField?.type.namedType)
            }
            lastField = nil
            typeCondition = nil
        case .punctuator("}"):
            if !selectionTypes.isEmpty { selectionTypes.removeLast() }
            lastField = nil
        case .punctuator("("):
            parenthesesDepth = 1
            // Variable definitions at the top level have no argument names to offer.
            openArguments = selectionTypes.isEmpty ? nil : lastArguments
            usedArguments = []
            currentArgument = nil
            valueDepth = 0
            expectsValue = false
        default:
            break
        }
    }

    private mutating func consumeTopLevel(_ name: String) {
        switch name {
        case "query": pendingType = schema.queryType.map(NamedType.object)
        case "mutation": pendingType = schema.mutationType.map(NamedType.object)
        case "subscription": pendingType = schema.subscriptionType.map(NamedType.object)
        default:
            if previous == .name("on") { pendingType = schema.type(named: name) }
        }
    }

    private mutating func consumeInsideParentheses(_ token: PartialDocumentScanner.Token) {
        switch token {
        case .punctuator("("):
            parenthesesDepth += 1
        case .punctuator(")"):
            parenthesesDepth -= 1
            if parenthesesDepth == 0 { openArguments = nil }
        case .punctuator("{"), .punctuator("["):
            valueDepth += 1
        case .punctuator("}"), .punctuator("]"):
            valueDepth -= 1
            if valueDepth == 0 { expectsValue = false }
        case .punctuator(":") where valueDepth == 0:
            expectsValue = true
        case .name(let name) where valueDepth == 0:
            if expectsValue {
                // An enum value, `true`, or the name of a `$variable`: the value is complete.
                expectsValue = false
            } else {
                currentArgument = openArguments?.first { $0.name == name }
                usedArguments.insert(name)
            }
        case .literal where valueDepth == 0:
            expectsValue = false
        default:
            break
        }
    }

    func candidates() -> [String] {
        if parenthesesDepth > 0 {
            guard let openArguments, valueDepth == 0 else { return [] }
            if expectsValue {
                switch currentArgument?.type.namedType {
                case .enumType(let enumType)?: return enumType.values.keys
                case .scalar(let scalar)? where scalar.name == "Boolean": return ["true", "false"]
                default: return []
                }
            }
            return openArguments.map(\.name).filter { !usedArguments.contains($0) }
        }
        if selectionTypes.isEmpty {
            if previous == .name("on") {
                return schema.types.values.filter { $0.isCompositeType && !$0.isIntrospectionType }.map(\.name)
            }
            return previous == nil ? CompletionEngine.commands + CompletionEngine.keywords : []
        }
        if previous == .punctuator("...") { return ["on"] }
        if previous == .name("on"), beforePrevious == .punctuator("...") {
            return schema.types.values.filter { $0.isCompositeType && !$0.isIntrospectionType }.map(\.name)
        }
        if previous == .punctuator("@") { return schema.directives.map(\.name) }
        guard let parent = selectionTypes.last ?? nil else { return [] }
        return (parent.fields?.keys ?? []) + ["__typename"]
    }
}
