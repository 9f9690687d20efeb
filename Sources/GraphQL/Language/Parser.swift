/// A recursive-descent parser for GraphQL documents (spec section 2 and the type-system
/// grammar of section 3), with graphql-js's error messages.
///
/// Use the static entry points: `parse(_:options:)` for documents, `parseValue`,
/// `parseConstValue` and `parseType` for fragments of the language, and
/// `parseSchemaCoordinate(_:)` for schema coordinates. Every failure is a `GraphQLError`
/// whose message starts with `"Syntax Error: "` and which carries one location.
public struct Parser {
    var lexer: Lexer
    /// The current, not yet consumed token.
    var token: Token
    /// End offset of the last consumed token: the end of the node being built.
    var lastEnd = 0
    let options: ParseOptions
    var tokenCount = 0
    var depth = 0

    init(source: Source, options: ParseOptions) throws(GraphQLError) {
        self.lexer = Lexer(source: source)
        self.options = options
        self.token = Token(kind: .endOfFile, location: Location(start: 0, end: 0, line: 1, column: 1))
        try advance()
    }

    // MARK: - Entry points

    /// Parses an executable or type-system document (or a mix: validation decides).
    /// - Throws: A syntax `GraphQLError`.
    public static func parse(_ source: Source, options: ParseOptions = ParseOptions()) throws(GraphQLError) -> Document {
        var parser = try Parser(source: source, options: options)
        return try parser.parseDocument()
    }

    /// Parses a document given as text.
    /// - Throws: A syntax `GraphQLError`.
    public static func parse(_ text: String, options: ParseOptions = ParseOptions()) throws(GraphQLError) -> Document {
        try parse(Source(body: text), options: options)
    }

    /// Parses a single value literal, which may contain variables, e.g. `{a: [1, $b]}`.
    /// - Throws: A syntax `GraphQLError`, also for anything after the value.
    public static func parseValue(_ source: Source, options: ParseOptions = ParseOptions()) throws(GraphQLError) -> Value {
        var parser = try Parser(source: source, options: options)
        let value = try parser.parseValueLiteral(isConstant: false)
        _ = try parser.expect(.endOfFile)
        return value
    }

    /// Parses a single constant value literal (no variables).
    /// - Throws: A syntax `GraphQLError`, also for anything after the value.
    public static func parseConstValue(_ source: Source, options: ParseOptions = ParseOptions()) throws(GraphQLError) -> Value {
        var parser = try Parser(source: source, options: options)
        let value = try parser.parseValueLiteral(isConstant: true)
        _ = try parser.expect(.endOfFile)
        return value
    }

    /// Parses a type reference such as `[String!]!`.
    /// - Throws: A syntax `GraphQLError`, also for anything after the type.
    public static func parseType(_ source: Source, options: ParseOptions = ParseOptions()) throws(GraphQLError) -> TypeReference {
        var parser = try Parser(source: source, options: options)
        let type = try parser.parseTypeReference()
        _ = try parser.expect(.endOfFile)
        return type
    }

    // MARK: - Tokens

    mutating func advance() throws(GraphQLError) {
        token = try lexer.next()
        guard token.kind != .endOfFile else { return }
        tokenCount += 1
        if let maxTokens = options.maxTokens, tokenCount > maxTokens {
            throw Parser.syntaxError(
                "Document contains more than \(maxTokens) tokens. Parsing aborted.", at: token.location)
        }
    }

    static func syntaxError(_ description: String, at location: Location) -> GraphQLError {
        GraphQLError(message: "Syntax Error: \(description)", locations: [location.sourceLocation])
    }

    func unexpected(_ token: Token? = nil) -> GraphQLError {
        let token = token ?? self.token
        return Parser.syntaxError("Unexpected \(token).", at: token.location)
    }

    /// The location from `start` to the end of the last consumed token.
    func location(from start: Location) -> Location {
        Location(start: start.start, end: max(lastEnd, start.start), line: start.line, column: start.column)
    }

    @inline(__always)
    func peek(_ kind: TokenKind) -> Bool { token.kind == kind }

    func peekKeyword(_ keyword: String) -> Bool {
        guard token.kind == .name, let value = token.value else { return false }
        return value == keyword
    }

    mutating func consume() throws(GraphQLError) -> Token {
        let consumed = token
        lastEnd = consumed.location.end
        try advance()
        return consumed
    }

    /// Consumes a token of `kind` or fails with `Expected <kind>, found <token>.`
    mutating func expect(_ kind: TokenKind) throws(GraphQLError) -> Token {
        guard token.kind == kind else {
            throw Parser.syntaxError("Expected \(kind), found \(token).", at: token.location)
        }
        return try consume()
    }

    /// Consumes a token of `kind` if it is next.
    mutating func expectOptional(_ kind: TokenKind) throws(GraphQLError) -> Bool {
        guard token.kind == kind else { return false }
        _ = try consume()
        return true
    }

    mutating func expectKeyword(_ keyword: String) throws(GraphQLError) {
        guard peekKeyword(keyword) else {
            throw Parser.syntaxError("Expected \"\(keyword)\", found \(token).", at: token.location)
        }
        _ = try consume()
    }

    mutating func expectOptionalKeyword(_ keyword: String) throws(GraphQLError) -> Bool {
        guard peekKeyword(keyword) else { return false }
        _ = try consume()
        return true
    }

    /// Guards recursion: every nested selection set, list or object value and list type
    /// passes here, so hostile nesting fails with an error instead of exhausting the stack.
    mutating func enterNesting() throws(GraphQLError) {
        depth += 1
        if depth > options.maxDepth {
            throw Parser.syntaxError(
                "Document exceeds the maximum nesting depth of \(options.maxDepth).", at: token.location)
        }
    }

    // MARK: - Document

    mutating func parseDocument() throws(GraphQLError) -> Document {
        let start = Location(start: 0, end: 0, line: 1, column: 1)
        var definitions: [Definition] = []
        repeat {
            definitions.append(try parseDefinition())
        } while !peek(.endOfFile)
        // Like graphql-js, the document spans to the end of the input, trailing ignored tokens included.
        lastEnd = token.location.end
        return Document(definitions: definitions, location: location(from: start), tokenCount: tokenCount)
    }

    mutating func parseDefinition() throws(GraphQLError) -> Definition {
        if peek(.braceLeft) { return .operation(try parseOperationDefinition()) }
        let hasDescription = peekDescription()
        let keyword = hasDescription ? try lexer.lookahead() : token
        if hasDescription && keyword.kind == .braceLeft {
            throw Parser.syntaxError(
                "Unexpected description, descriptions are not supported on shorthand queries.", at: token.location)
        }
        if keyword.kind == .name, let value = keyword.value {
            switch value {
            case "query", "mutation", "subscription": return .operation(try parseOperationDefinition())
            case "fragment": return .fragment(try parseFragmentDefinition())
            case "schema": return .schema(try parseSchemaDefinition())
            case "scalar", "type", "interface", "union", "enum", "input": return .type(try parseTypeDefinition())
            case "directive": return .directive(try parseDirectiveDefinition())
            default: break
            }
            if hasDescription {
                throw Parser.syntaxError(
                    "Unexpected description, only GraphQL definitions support descriptions.", at: token.location)
            }
            if value == "extend" { return try parseTypeSystemExtension() }
        }
        throw unexpected(keyword)
    }

    // MARK: - Operations

    mutating func parseOperationDefinition() throws(GraphQLError) -> OperationDefinition {
        let start = token.location
        if peek(.braceLeft) {
            let selectionSet = try parseSelectionSet()
            return OperationDefinition(
                operation: .query, name: nil, selectionSet: selectionSet, isShorthand: true,
                location: location(from: start))
        }
        let description = try parseDescription()
        let operation = try parseOperationType()
        let name = peek(.name) ? try parseName() : nil
        let variableDefinitions = try parseVariableDefinitions()
        let directives = try parseDirectives(isConstant: false)
        let selectionSet = try parseSelectionSet()
        return OperationDefinition(
            description: description, operation: operation, name: name,
            variableDefinitions: variableDefinitions, directives: directives, selectionSet: selectionSet,
            location: location(from: start))
    }

    mutating func parseOperationType() throws(GraphQLError) -> OperationType {
        let operationToken = try expect(.name)
        guard let value = operationToken.value, let operation = OperationType(rawValue: value) else {
            throw unexpected(operationToken)
        }
        return operation
    }

    mutating func parseVariableDefinitions() throws(GraphQLError) -> [VariableDefinition] {
        guard try expectOptional(.parenLeft) else { return [] }
        var definitions: [VariableDefinition] = []
        repeat {
            definitions.append(try parseVariableDefinition())
        } while try !expectOptional(.parenRight)
        return definitions
    }

    mutating func parseVariableDefinition() throws(GraphQLError) -> VariableDefinition {
        let start = token.location
        let description = try parseDescription()
        let variable = try parseVariable()
        _ = try expect(.colon)
        let type = try parseTypeReference()
        let defaultValue = try expectOptional(.equals) ? try parseValueLiteral(isConstant: true) : nil
        let directives = try parseDirectives(isConstant: true)
        return VariableDefinition(
            description: description, variable: variable, type: type, defaultValue: defaultValue,
            directives: directives, location: location(from: start))
    }

    mutating func parseVariable() throws(GraphQLError) -> Variable {
        let start = try expect(.dollar).location
        let name = try parseName()
        return Variable(name: name, location: location(from: start))
    }

    // MARK: - Selections

    mutating func parseSelectionSet() throws(GraphQLError) -> SelectionSet {
        try enterNesting()
        defer { depth -= 1 }
        let start = try expect(.braceLeft).location
        var selections: [Selection] = []
        repeat {
            selections.append(try parseSelection())
        } while try !expectOptional(.braceRight)
        return SelectionSet(selections: selections, location: location(from: start))
    }

    mutating func parseSelection() throws(GraphQLError) -> Selection {
        peek(.spread) ? try parseFragment() : .field(try parseField())
    }

    mutating func parseField() throws(GraphQLError) -> Field {
        let start = token.location
        let nameOrAlias = try parseName()
        let alias: Name?
        let name: Name
        if try expectOptional(.colon) {
            alias = nameOrAlias
            name = try parseName()
        } else {
            alias = nil
            name = nameOrAlias
        }
        let arguments = try parseArguments(isConstant: false)
        let directives = try parseDirectives(isConstant: false)
        let selectionSet = peek(.braceLeft) ? try parseSelectionSet() : nil
        return Field(
            alias: alias, name: name, arguments: arguments, directives: directives, selectionSet: selectionSet,
            location: location(from: start))
    }

    mutating func parseArguments(isConstant: Bool) throws(GraphQLError) -> [Argument] {
        guard try expectOptional(.parenLeft) else { return [] }
        var arguments: [Argument] = []
        repeat {
            let start = token.location
            let name = try parseName()
            _ = try expect(.colon)
            let value = try parseValueLiteral(isConstant: isConstant)
            arguments.append(Argument(name: name, value: value, location: location(from: start)))
        } while try !expectOptional(.parenRight)
        return arguments
    }

    /// `...Name`, `... on Type { }` or `... { }`.
    mutating func parseFragment() throws(GraphQLError) -> Selection {
        let start = try expect(.spread).location
        let hasTypeCondition = try expectOptionalKeyword("on")
        if !hasTypeCondition && peek(.name) {
            let name = try parseFragmentName()
            let directives = try parseDirectives(isConstant: false)
            return .fragmentSpread(FragmentSpread(name: name, directives: directives, location: location(from: start)))
        }
        let typeCondition = hasTypeCondition ? try parseName() : nil
        let directives = try parseDirectives(isConstant: false)
        let selectionSet = try parseSelectionSet()
        return .inlineFragment(
            InlineFragment(
                typeCondition: typeCondition, directives: directives, selectionSet: selectionSet,
                location: location(from: start)))
    }

    mutating func parseFragmentDefinition() throws(GraphQLError) -> FragmentDefinition {
        let start = token.location
        let description = try parseDescription()
        try expectKeyword("fragment")
        let name = try parseFragmentName()
        try expectKeyword("on")
        let typeCondition = try parseName()
        let directives = try parseDirectives(isConstant: false)
        let selectionSet = try parseSelectionSet()
        return FragmentDefinition(
            description: description, name: name, typeCondition: typeCondition, directives: directives,
            selectionSet: selectionSet, location: location(from: start))
    }

    mutating func parseFragmentName() throws(GraphQLError) -> Name {
        if peekKeyword("on") { throw unexpected() }
        return try parseName()
    }

    mutating func parseName() throws(GraphQLError) -> Name {
        let nameToken = try expect(.name)
        return Name(value: nameToken.value ?? "", location: nameToken.location)
    }

    // MARK: - Values

    mutating func parseValueLiteral(isConstant: Bool) throws(GraphQLError) -> Value {
        let current = token
        switch current.kind {
        case .bracketLeft:
            return try parseList(isConstant: isConstant)
        case .braceLeft:
            return try parseObject(isConstant: isConstant)
        case .int:
            _ = try consume()
            return Value(.int(current.value ?? ""), location: current.location)
        case .float:
            _ = try consume()
            return Value(.float(current.value ?? ""), location: current.location)
        case .string, .blockString:
            let string = try parseStringLiteral()
            return Value(.string(string.value, block: string.block), location: string.location)
        case .name:
            _ = try consume()
            let kind: Value.Kind = switch current.value ?? "" {
            case "true": .boolean(true)
            case "false": .boolean(false)
            case "null": .null
            case let name: .enumValue(name)
            }
            return Value(kind, location: current.location)
        case .dollar:
            if isConstant {
                _ = try consume()
                if token.kind == .name, let name = token.value {
                    throw Parser.syntaxError("Unexpected variable \"$\(name)\" in constant value.", at: current.location)
                }
                throw unexpected(current)
            }
            let variable = try parseVariable()
            return Value(.variable(variable.name.value), location: variable.location)
        default:
            throw unexpected()
        }
    }

    mutating func parseList(isConstant: Bool) throws(GraphQLError) -> Value {
        try enterNesting()
        defer { depth -= 1 }
        let start = try expect(.bracketLeft).location
        var items: [Value] = []
        while try !expectOptional(.bracketRight) {
            items.append(try parseValueLiteral(isConstant: isConstant))
        }
        return Value(.list(items), location: location(from: start))
    }

    mutating func parseObject(isConstant: Bool) throws(GraphQLError) -> Value {
        try enterNesting()
        defer { depth -= 1 }
        let start = try expect(.braceLeft).location
        var fields: [ObjectField] = []
        while try !expectOptional(.braceRight) {
            let fieldStart = token.location
            let name = try parseName()
            _ = try expect(.colon)
            let value = try parseValueLiteral(isConstant: isConstant)
            fields.append(ObjectField(name: name, value: value, location: location(from: fieldStart)))
        }
        return Value(.object(fields), location: location(from: start))
    }

    mutating func parseStringLiteral() throws(GraphQLError) -> StringValue {
        let string = try consume()
        return StringValue(value: string.value ?? "", block: string.kind == .blockString, location: string.location)
    }

    // MARK: - Directives and types

    mutating func parseDirectives(isConstant: Bool) throws(GraphQLError) -> [Directive] {
        var directives: [Directive] = []
        while peek(.at) {
            let start = try consume().location
            let name = try parseName()
            let arguments = try parseArguments(isConstant: isConstant)
            directives.append(Directive(name: name, arguments: arguments, location: location(from: start)))
        }
        return directives
    }

    mutating func parseTypeReference() throws(GraphQLError) -> TypeReference {
        let start = token.location
        var type: TypeReference
        if peek(.bracketLeft) {
            try enterNesting()
            defer { depth -= 1 }
            _ = try consume()
            let inner = try parseTypeReference()
            _ = try expect(.bracketRight)
            type = .list(inner, location(from: start))
        } else {
            type = .named(try parseName())
        }
        if try expectOptional(.bang) {
            type = .nonNull(type, location(from: start))
        }
        return type
    }
}
