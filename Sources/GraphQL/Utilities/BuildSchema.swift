/// How `buildSchema` builds a schema from SDL.
public struct BuildSchemaOptions: Sendable {
    /// Coercion of custom scalars by scalar name (a `DateTime`, a `Decimal`); scalars not
    /// listed pass values through unchanged (`PassThroughScalarCoercing`).
    public var scalars: [String: any ScalarCoercing]
    /// Whether to check the built schema against the type system rules (`validateSchema`);
    /// on by default. Turn it off only for SDL already known to be valid.
    public var validate: Bool

    /// Creates options.
    public init(scalars: [String: any ScalarCoercing] = [:], validate: Bool = true) {
        self.scalars = scalars
        self.validate = validate
    }
}

/// Builds a schema from SDL (graphql-js `buildSchema`): type definitions of every kind with
/// their extensions merged, `schema { … }` or the default root type names `Query`, `Mutation`
/// and `Subscription`, directive definitions, default values, `@deprecated`, `@specifiedBy`
/// and `@oneOf`.
/// - Parameter sourceName: The name error messages give the SDL, such as its file name.
/// - Throws: `SchemaError` with `.syntaxError` if the SDL does not parse, or `.invalidSchema`
///   with every inconsistency (unknown types, duplicate names, bad extensions or directive
///   uses) or, when `options.validate` is on, every violation of the type system rules.
public func buildSchema(
    sdl: String, sourceName: String = "GraphQL SDL", options: BuildSchemaOptions = BuildSchemaOptions()
) throws(SchemaError) -> Schema {
    let document: Document
    do {
        document = try Parser.parse(Source(body: sdl, name: sourceName))
    } catch {
        throw SchemaError(code: .syntaxError, errors: [error])
    }
    return try buildSchema(document: document, options: options)
}

/// Builds a schema from a parsed type-system document; see `buildSchema(sdl:sourceName:options:)`.
public func buildSchema(
    document: Document, options: BuildSchemaOptions = BuildSchemaOptions()
) throws(SchemaError) -> Schema {
    var builder = ASTSchemaBuilder(options: options)
    let schema = builder.build(document)
    guard let schema, builder.errors.isEmpty else {
        throw SchemaError(code: .invalidSchema, errors: builder.errors)
    }
    if options.validate {
        let errors = validateSchema(schema)
        if !errors.isEmpty { throw SchemaError(code: .invalidSchema, errors: errors) }
    }
    return schema
}

/// Turns the definitions of an SDL document into schema types, reporting what does not fit
/// together the way graphql-js's SDL validation rules do.
private struct ASTSchemaBuilder {
    let options: BuildSchemaOptions
    var errors: [GraphQLError] = []

    private var schemaDefinition: SchemaDefinition?
    private var schemaExtensions: [SchemaDefinition] = []
    private var typeDefinitions = OrderedMap<String, TypeDefinition>()
    private var typeExtensions: [String: [TypeDefinition]] = [:]
    private var directiveDefinitions = OrderedMap<String, DirectiveDefinition>()
    private var types: [String: NamedType] = [:]
    private var directives: [String: SchemaDirective] = [:]
    private var inputValues: [InputValue] = []

    init(options: BuildSchemaOptions) { self.options = options }

    mutating func report(_ message: String, _ locations: [Location]) {
        errors.append(GraphQLError(message: message, locations: locations.map(\.sourceLocation)))
    }

    mutating func build(_ document: Document) -> Schema? {
        collect(document)
        checkExtensions()
        for (name, definition) in typeDefinitions where !definition.isUnion {
            types[name] = makeType(definition, extensions: typeExtensions[name] ?? [])
        }
        for (name, definition) in typeDefinitions where definition.isUnion {
            types[name] = makeType(definition, extensions: typeExtensions[name] ?? [])
        }
        for definition in directiveDefinitions.values {
            directives[definition.name.value] = makeDirective(definition)
        }
        for directive in SchemaDirective.specified where directives[directive.name] == nil {
            directives[directive.name] = directive
        }
        for (name, definition) in typeDefinitions {
            defineFields(types[name]!, definition, extensions: typeExtensions[name] ?? [])
        }
        var schemaDirectives: [Directive] = schemaDefinition?.directives ?? []
        for schemaExtension in schemaExtensions { schemaDirectives += schemaExtension.directives }
        checkDirectives(schemaDirectives, at: .schema)
        let roots = rootTypes()
        guard errors.isEmpty else { return nil }

        checkDefaultValueCycles()
        guard errors.isEmpty else { return nil }
        for inputValue in inputValues {
            if let literal = inputValue.defaultLiteral { inputValue.defaultValue = valueFromAST(literal, type: inputValue.type) }
        }

        var orderedDirectives = directiveDefinitions.keys.compactMap { directives[$0] }
        for directive in SchemaDirective.specified where directiveDefinitions[directive.name] == nil {
            orderedDirectives.append(directive)
        }
        do {
            return try Schema(
                query: roots.query, mutation: roots.mutation, subscription: roots.subscription,
                types: typeDefinitions.keys.compactMap { types[$0] }, directives: orderedDirectives,
                description: schemaDefinition?.description?.value, definition: schemaDefinition,
                extensionDefinitions: schemaExtensions)
        } catch {
            errors += error.errors
            return nil
        }
    }

    // MARK: - Collecting definitions

    private mutating func collect(_ document: Document) {
        for definition in document.definitions {
            switch definition {
            case .operation, .fragment:
                report("A schema document may only contain type system definitions and extensions.", [definition.location])
            case .schema(let node):
                if schemaDefinition != nil {
                    report("Must provide only one schema definition.", [node.location])
                } else {
                    schemaDefinition = node
                }
            case .schemaExtension(let node):
                schemaExtensions.append(node)
            case .type(let node):
                if let existing = typeDefinitions[node.name.value] {
                    report("There can be only one type named \"\(node.name.value)\".", [existing.name.location, node.name.location])
                } else {
                    typeDefinitions[node.name.value] = node
                }
            case .typeExtension(let node):
                typeExtensions[node.name.value, default: []].append(node)
            case .directive(let node):
                if let existing = directiveDefinitions[node.name.value] {
                    report("There can be only one directive named \"@\(node.name.value)\".", [existing.name.location, node.name.location])
                } else {
                    directiveDefinitions[node.name.value] = node
                }
            }
        }
    }

    private mutating func checkExtensions() {
        for definition in typeExtensionsInOrder() {
            let name = definition.name.value
            if let base = typeDefinitions[name] {
                if base.kindWord != definition.kindWord {
                    report("Cannot extend non-\(definition.kindWord) type \"\(name)\".", [definition.location])
                    typeExtensions[name]?.removeAll { $0.location == definition.location }
                }
            } else {
                let suggestions = suggestionList(input: name, options: typeDefinitions.keys)
                report("Cannot extend type \"\(name)\" because it is not defined." + didYouMean(suggestions), [definition.name.location])
            }
        }
    }

    private func typeExtensionsInOrder() -> [TypeDefinition] {
        typeExtensions.values.flatMap { $0 }.sorted { $0.location.start < $1.location.start }
    }

    // MARK: - Types

    private mutating func makeType(_ definition: TypeDefinition, extensions: [TypeDefinition]) -> NamedType {
        let name = definition.name.value
        let description = definition.description?.value
        let allDirectives = definition.directives + extensions.flatMap(\.directives)
        switch definition {
        case .scalar(let node):
            checkDirectives(allDirectives, at: .scalar)
            if let specified = ScalarType.specified.first(where: { $0.name == name }) { return .scalar(specified) }
            let url = allDirectives.first { $0.name.value == "specifiedBy" }?.stringArgument("url")
            return .scalar(ScalarType(
                name: name, description: description, specifiedByURL: url,
                coercing: options.scalars[name] ?? PassThroughScalarCoercing(name: name), definition: node,
                extensionDefinitions: extensions.compactMap(\.scalarNode)))
        case .object(let node):
            checkDirectives(allDirectives, at: .object)
            return .object(ObjectType(
                name: name, description: description, definition: node,
                extensionDefinitions: extensions.compactMap(\.objectNode)))
        case .interface(let node):
            checkDirectives(allDirectives, at: .interface)
            return .interface(InterfaceType(
                name: name, description: description, definition: node,
                extensionDefinitions: extensions.compactMap(\.interfaceNode)))
        case .union(let node):
            checkDirectives(allDirectives, at: .union)
            let unionExtensions = extensions.compactMap(\.unionNode)
            var members: [ObjectType] = []
            for member in node.types + unionExtensions.flatMap(\.types) {
                // Unions are made last, so a member naming another union is not built yet.
                if let memberDefinition = typeDefinitions[member.value], memberDefinition.isUnion {
                    report("Union type \(name) can only include Object types, it cannot include \(member.value).", [member.location])
                    continue
                }
                switch resolve(member) {
                case .object(let object)?: members.append(object)
                case let other?:
                    report("Union type \(name) can only include Object types, it cannot include \(other.name).", [member.location])
                case nil: break
                }
            }
            return .union(UnionType(
                name: name, description: description, types: members, definition: node,
                extensionDefinitions: unionExtensions))
        case .enumType(let node):
            checkDirectives(allDirectives, at: .enumType)
            let enumExtensions = extensions.compactMap(\.enumNode)
            var seen: [String: Location] = [:]
            var values: [EnumValue] = []
            for value in node.values + enumExtensions.flatMap(\.values) {
                if let previous = seen[value.name.value] {
                    report("Enum value \"\(name).\(value.name.value)\" can only be defined once.", [previous, value.name.location])
                    continue
                }
                seen[value.name.value] = value.name.location
                checkDirectives(value.directives, at: .enumValue)
                values.append(EnumValue(
                    name: value.name.value, description: value.description?.value,
                    deprecationReason: deprecationReason(value.directives), definition: value))
            }
            return .enumType(EnumType(
                name: name, description: description, values: values, definition: node,
                extensionDefinitions: enumExtensions))
        case .inputObject(let node):
            checkDirectives(allDirectives, at: .inputObject)
            return .inputObject(InputObjectType(
                name: name, description: description, isOneOf: allDirectives.contains { $0.name.value == "oneOf" },
                definition: node, extensionDefinitions: extensions.compactMap(\.inputObjectNode)))
        }
    }

    private mutating func defineFields(_ type: NamedType, _ definition: TypeDefinition, extensions: [TypeDefinition]) {
        switch (type, definition) {
        case (.object(let object), .object(let node)):
            let nodes = [node] + extensions.compactMap(\.objectNode)
            object.define(
                fields: makeFields(object.name, nodes.flatMap(\.fields)),
                interfaces: makeInterfaces(object.name, nodes.flatMap(\.interfaces)))
        case (.interface(let interface), .interface(let node)):
            let nodes = [node] + extensions.compactMap(\.interfaceNode)
            interface.define(
                fields: makeFields(interface.name, nodes.flatMap(\.fields)),
                interfaces: makeInterfaces(interface.name, nodes.flatMap(\.interfaces)))
        case (.inputObject(let input), .inputObject(let node)):
            let nodes = [node] + extensions.compactMap(\.inputObjectNode)
            var seen: [String: Location] = [:]
            var fields: [InputValue] = []
            for fieldNode in nodes.flatMap(\.fields) {
                if let previous = seen[fieldNode.name.value] {
                    report("Field \"\(input.name).\(fieldNode.name.value)\" can only be defined once.", [previous, fieldNode.name.location])
                    continue
                }
                seen[fieldNode.name.value] = fieldNode.name.location
                if let field = makeInputValue(fieldNode, at: .inputFieldDefinition) { fields.append(field) }
            }
            input.define(fields: fields)
        default:
            break
        }
    }

    private mutating func makeFields(_ typeName: String, _ nodes: [FieldDefinition]) -> [SchemaField] {
        var seen: [String: Location] = [:]
        var fields: [SchemaField] = []
        for node in nodes {
            if let previous = seen[node.name.value] {
                report("Field \"\(typeName).\(node.name.value)\" can only be defined once.", [previous, node.name.location])
                continue
            }
            seen[node.name.value] = node.name.location
            checkDirectives(node.directives, at: .fieldDefinition)
            let arguments = makeArguments("\(typeName).\(node.name.value)", node.arguments)
            guard let type = resolve(node.type) else { continue }
            fields.append(SchemaField(
                name: node.name.value, description: node.description?.value, arguments: arguments, type: type,
                deprecationReason: deprecationReason(node.directives), definition: node))
        }
        return fields
    }

    private mutating func makeArguments(_ parent: String, _ nodes: [InputValueDefinition]) -> [InputValue] {
        var seen: [String: Location] = [:]
        var arguments: [InputValue] = []
        for node in nodes {
            if let previous = seen[node.name.value] {
                report("Argument \"\(parent)(\(node.name.value):)\" can only be defined once.", [previous, node.name.location])
                continue
            }
            seen[node.name.value] = node.name.location
            if let argument = makeInputValue(node, at: .argumentDefinition) { arguments.append(argument) }
        }
        return arguments
    }

    private mutating func makeInputValue(_ node: InputValueDefinition, at location: DirectiveLocation) -> InputValue? {
        checkDirectives(node.directives, at: location)
        guard let type = resolve(node.type) else { return nil }
        let value = InputValue(
            name: node.name.value, description: node.description?.value, type: type,
            defaultLiteral: node.defaultValue, deprecationReason: deprecationReason(node.directives), definition: node)
        inputValues.append(value)
        return value
    }

    private mutating func makeInterfaces(_ typeName: String, _ names: [Name]) -> [InterfaceType] {
        var interfaces: [InterfaceType] = []
        for name in names {
            switch resolve(name) {
            case .interface(let interface)?: interfaces.append(interface)
            case let other?:
                report("Type \(typeName) must only implement Interface types, it cannot implement \(other.name).", [name.location])
            case nil: break
            }
        }
        return interfaces
    }

    private mutating func makeDirective(_ node: DirectiveDefinition) -> SchemaDirective {
        SchemaDirective(
            name: node.name.value, description: node.description?.value,
            locations: node.locations.compactMap { DirectiveLocation(rawValue: $0.value) },
            arguments: makeArguments("@\(node.name.value)", node.arguments), isRepeatable: node.isRepeatable,
            definition: node)
    }

    private mutating func rootTypes() -> (query: ObjectType?, mutation: ObjectType?, subscription: ObjectType?) {
        var named: [OperationType: Name] = [:]
        for operationType in (schemaDefinition?.operationTypes ?? []) + schemaExtensions.flatMap(\.operationTypes) {
            if named[operationType.operation] != nil {
                report("There can be only one \(operationType.operation.rawValue) type in schema.", [operationType.location])
            } else {
                named[operationType.operation] = operationType.type
            }
        }
        func root(_ operation: OperationType, defaultName: String) -> ObjectType? {
            let type: NamedType?
            let location: [Location]
            if let name = named[operation] {
                type = resolve(name)
                location = [name.location]
            } else if schemaDefinition == nil, let defaultType = types[defaultName] {
                type = defaultType
                location = defaultType.definition.map { [$0.location] } ?? []
            } else {
                return nil
            }
            switch type {
            case .object(let object)?: return object
            case let other?:
                let label = operation.rawValue.prefix(1).uppercased() + operation.rawValue.dropFirst()
                let requirement = operation == .query ? "" : " if provided"
                report("\(label) root type must be Object type\(requirement), it cannot be \(other.name).", location)
                return nil
            case nil: return nil
            }
        }
        return (root(.query, defaultName: "Query"), root(.mutation, defaultName: "Mutation"),
                root(.subscription, defaultName: "Subscription"))
    }

    // MARK: - References

    private mutating func resolve(_ reference: TypeReference) -> SchemaType? {
        switch reference {
        case .named(let name): resolve(name).map(SchemaType.named)
        case .list(let inner, _): resolve(inner).map(SchemaType.list)
        case .nonNull(let inner, _): resolve(inner).map(SchemaType.nonNull)
        }
    }

    private mutating func resolve(_ name: Name) -> NamedType? {
        if let type = types[name.value] { return type }
        if let scalar = ScalarType.specified.first(where: { $0.name == name.value }) { return .scalar(scalar) }
        let candidates = ScalarType.specified.map(\.name) + typeDefinitions.keys
        report("Unknown type \"\(name.value)\"." + didYouMean(suggestionList(input: name.value, options: candidates)), [name.location])
        return nil
    }

    // MARK: - Directive uses

    /// Checks directive uses the way graphql-js's KnownDirectives, UniqueDirectivesPerLocation,
    /// KnownArgumentNamesOnDirectives, UniqueArgumentNames and
    /// ProvidedRequiredArgumentsOnDirectives rules do, plus the argument values' types.
    private mutating func checkDirectives(_ uses: [Directive], at location: DirectiveLocation) {
        var seenNonRepeatable: [String: Location] = [:]
        for use in uses {
            let name = use.name.value
            guard let directive = knownDirective(name) else {
                report("Unknown directive \"@\(name)\".", [use.name.location])
                continue
            }
            if !directive.locations.contains(location) {
                report("Directive \"@\(name)\" may not be used on \(location.rawValue).", [use.location])
            }
            if !directive.isRepeatable {
                if let previous = seenNonRepeatable[name] {
                    report("The directive \"@\(name)\" can only be used once at this location.", [previous, use.location])
                } else {
                    seenNonRepeatable[name] = use.location
                }
            }
            var seenArguments: [String: Location] = [:]
            for argument in use.arguments {
                if let previous = seenArguments[argument.name.value] {
                    report("There can be only one argument named \"\(argument.name.value)\".", [previous, argument.name.location])
                    continue
                }
                seenArguments[argument.name.value] = argument.name.location
                guard let definition = directive.arguments.first(where: { $0.name == argument.name.value }) else {
                    let suggestions = suggestionList(input: argument.name.value, options: directive.arguments.map(\.name))
                    report("Unknown argument \"\(argument.name.value)\" on directive \"@\(name)\"." + didYouMean(suggestions), [argument.location])
                    continue
                }
                if let type = definition.type, valueFromAST(argument.value, type: type) == nil {
                    report("Expected value of type \"\(type)\", found \(Printer.print(argument.value)).", [argument.value.location])
                }
            }
            for definition in directive.arguments where definition.isRequired && seenArguments[definition.name] == nil {
                report("Directive \"@\(name)\" argument \"\(definition.name)\" of type \"\(definition.typeText)\" is required, but it was not provided.", [use.location])
            }
        }
    }

    /// The directive called `name` as far as uses need it: locations, repeatability and
    /// arguments (types only once they resolve, so uses can be checked before every type exists).
    private func knownDirective(_ name: String) -> KnownDirective? {
        if let node = directiveDefinitions[name] {
            return KnownDirective(
                locations: node.locations.compactMap { DirectiveLocation(rawValue: $0.value) }, isRepeatable: node.isRepeatable,
                arguments: node.arguments.map { argument in
                    KnownDirective.Argument(
                        name: argument.name.value, type: peekType(argument.type), typeText: argument.type.description,
                        isRequired: argument.type.isNonNull && argument.defaultValue == nil)
                })
        }
        guard let directive = SchemaDirective.specified.first(where: { $0.name == name }) else { return nil }
        return KnownDirective(
            locations: directive.locations, isRepeatable: directive.isRepeatable,
            arguments: directive.arguments.map {
                KnownDirective.Argument(name: $0.name, type: $0.type, typeText: $0.type.description, isRequired: $0.isRequired)
            })
    }

    /// The schema type of a reference if every name in it is already built; `nil` otherwise.
    private func peekType(_ reference: TypeReference) -> SchemaType? {
        switch reference {
        case .named(let name):
            if let type = types[name.value] { return .named(type) }
            return ScalarType.specified.first { $0.name == name.value }.map { .named(.scalar($0)) }
        case .list(let inner, _): return peekType(inner).map(SchemaType.list)
        case .nonNull(let inner, _): return peekType(inner).map(SchemaType.nonNull)
        }
    }

    private func deprecationReason(_ uses: [Directive]) -> String? {
        guard let use = uses.first(where: { $0.name.value == "deprecated" }) else { return nil }
        guard let argument = use.arguments.first(where: { $0.name.value == "reason" }) else {
            return SchemaDirective.defaultDeprecationReason
        }
        if case .string(let reason, _) = argument.value.kind { return reason }
        return nil
    }

    // MARK: - Default value cycles

    /// Reports input object fields whose default values contain themselves, directly or
    /// through other fields' defaults, which would make coercing them loop forever
    /// (graphql-js's default value circular reference rule).
    private mutating func checkDefaultValueCycles() {
        var detector = DefaultValueCycleDetector()
        for type in typeDefinitions.keys.compactMap({ types[$0] }) {
            if case .inputObject(let input) = type { detector.checkFields(of: input) }
        }
        errors += detector.errors
    }
}

/// What checking a directive use needs to know about the directive.
private struct KnownDirective {
    struct Argument {
        let name: String
        let type: SchemaType?
        let typeText: String
        let isRequired: Bool
    }

    let locations: [DirectiveLocation]
    let isRepeatable: Bool
    let arguments: [Argument]
}

/// Depth-first search for default values that refer back to themselves.
private struct DefaultValueCycleDetector {
    var errors: [GraphQLError] = []
    private var visitedFields: Set<String> = []
    private var fieldPath: [(name: String, location: Location)] = []
    private var fieldPathIndex: [String: Int] = [:]

    mutating func checkFields(of inputObject: InputObjectType) {
        for field in inputObject.fields.values {
            if case .inputObject(let fieldType) = field.type.namedType {
                checkField(field, fieldType, "\(inputObject.name).\(field.name)")
            }
        }
    }

    private mutating func checkLiteral(_ inputObject: InputObjectType, _ literal: Value) {
        switch literal.kind {
        case .list(let items):
            for item in items { checkLiteral(inputObject, item) }
        case .object(let fieldNodes):
            for field in inputObject.fields.values {
                guard case .inputObject(let fieldType) = field.type.namedType else { continue }
                if let fieldNode = fieldNodes.first(where: { $0.name.value == field.name }) {
                    checkLiteral(fieldType, fieldNode.value)
                } else {
                    checkField(field, fieldType, "\(inputObject.name).\(field.name)")
                }
            }
        default:
            break
        }
    }

    private mutating func checkField(_ field: InputValue, _ fieldType: InputObjectType, _ fieldName: String) {
        guard let literal = field.defaultLiteral else { return }
        if let cycleIndex = fieldPathIndex[fieldName] {
            let via = cycleIndex < fieldPath.count
                ? " via the default values of: " + fieldPath[cycleIndex...].map(\.name).joined(separator: ", ") : ""
            errors.append(GraphQLError(
                message: "Invalid circular reference. The default value of Input Object field \(fieldName) references itself\(via).",
                locations: fieldPath[(cycleIndex - 1)...].map(\.location.sourceLocation)))
            return
        }
        guard visitedFields.insert(fieldName).inserted else { return }
        fieldPath.append((fieldName, literal.location))
        fieldPathIndex[fieldName] = fieldPath.count
        checkLiteral(fieldType, literal)
        fieldPath.removeLast()
        fieldPathIndex[fieldName] = nil
    }
}

extension Directive {
    /// The value of the string argument `name`, if given as a string literal.
    fileprivate func stringArgument(_ name: String) -> String? {
        guard let argument = arguments.first(where: { $0.name.value == name }),
              case .string(let value, _) = argument.value.kind else { return nil }
        return value
    }
}

extension TypeDefinition {
    /// The kind as graphql-js names it in extension errors.
    fileprivate var kindWord: String {
        switch self {
        case .scalar: "scalar"
        case .object: "object"
        case .interface: "interface"
        case .union: "union"
        case .enumType: "enum"
        case .inputObject: "input object"
        }
    }

    fileprivate var isUnion: Bool {
        if case .union = self { return true }
        return false
    }

    fileprivate var scalarNode: ScalarTypeDefinition? { if case .scalar(let node) = self { node } else { nil } }
    fileprivate var objectNode: ObjectTypeDefinition? { if case .object(let node) = self { node } else { nil } }
    fileprivate var interfaceNode: InterfaceTypeDefinition? { if case .interface(let node) = self { node } else { nil } }
    fileprivate var unionNode: UnionTypeDefinition? { if case .union(let node) = self { node } else { nil } }
    fileprivate var enumNode: EnumTypeDefinition? { if case .enumType(let node) = self { node } else { nil } }
    fileprivate var inputObjectNode: InputObjectTypeDefinition? { if case .inputObject(let node) = self { node } else { nil } }
}

extension TypeReference {
    fileprivate var isNonNull: Bool {
        if case .nonNull = self { return true }
        return false
    }
}
