// Resolution of the introspection meta-fields and types (spec 4.2 and Appendix D).
//
// The values behind the introspection types are the schema's own objects: `Schema` for
// `__Schema`, `SchemaType` for `__Type` (named types as `.named`), `SchemaField` for
// `__Field`, `InputValue` for `__InputValue`, `EnumValue` for `__EnumValue` and
// `SchemaDirective` for `__Directive`.

extension Introspection {
    /// Attaches the resolvers of `__schema`, `__type` and every field of the introspection
    /// types (`__typename` is answered by the executor itself).
    static func install(into resolvers: inout Resolvers) {
        let introspection = resolvers.schema.introspection
        resolvers.resolve(introspection.schemaField) { _, _, _, info in .value(info.schema) }
        resolvers.resolve(introspection.typeField) { _, arguments, _, info in
            .value(arguments.string("name").flatMap { info.schema.type(named: $0) }.map(SchemaType.named))
        }

        /// Attaches `fields` of `type`: `.value` bodies through the general path (objects and
        /// lists of objects), `.leaf` bodies as leaf resolvers (scalars and enums).
        func install<Source>(_ type: ObjectType, _ source: Source.Type, _ fields: [String: Body<Source>]) {
            for (name, body) in fields {
                guard let field = type.fields[name] else { continue }
                let mismatch = { @Sendable (value: Any) in
                    GraphQLError(message: "\(type.name).\(name) cannot resolve from \(Swift.type(of: value)).")
                }
                switch body {
                case .value(let body):
                    resolvers.attach(.builtIn { value, arguments, schema throws(GraphQLError) in
                        guard let value = exactValue(value as Any, as: Source.self) ?? (value as? Source) else { throw mismatch(value) }
                        return body(value, arguments, schema)
                    }, to: field)
                case .leaf(let body):
                    resolvers.attach(.leaf { value throws(GraphQLError) in
                        guard let value = exactValue(value as Any, as: Source.self) ?? (value as? Source) else { throw mismatch(value) }
                        return body(value)
                    }, to: field)
                }
            }
        }

        install(introspection.schemaType, Schema.self, [
            "description": .leaf { schema in JSON(schema.description) },
            "types": .value { schema, _, _ in schema.types.values.map(SchemaType.named) },
            "queryType": .value { schema, _, _ in schema.queryType.map { SchemaType.named(.object($0)) } },
            "mutationType": .value { schema, _, _ in schema.mutationType.map { SchemaType.named(.object($0)) } },
            "subscriptionType": .value { schema, _, _ in schema.subscriptionType.map { SchemaType.named(.object($0)) } },
            "directives": .value { schema, _, _ in schema.directives },
        ])
        install(introspection.typeType, SchemaType.self, [
            "kind": .leaf { type in
                switch type {
                case .named(let named): .string(named.kindName)
                case .list: "LIST"
                case .nonNull: "NON_NULL"
                }
            },
            "name": .leaf { type in JSON(named(type)?.name) },
            "description": .leaf { type in JSON(named(type)?.typeDescription) },
            "specifiedByURL": .leaf { type in
                if case .named(.scalar(let scalar)) = type { return JSON(scalar.specifiedByURL) }
                return .null
            },
            "fields": .value { type, arguments, _ in
                guard let fields = named(type)?.fields else { return nil }
                return visible(fields.values, arguments)
            },
            "interfaces": .value { type, _, _ in
                switch type {
                case .named(.object(let object)): object.interfaces.map { SchemaType.named(.interface($0)) }
                case .named(.interface(let interface)): interface.interfaces.map { SchemaType.named(.interface($0)) }
                default: nil
                }
            },
            "possibleTypes": .value { type, _, schema in
                guard let named = named(type), named.isAbstractType else { return nil }
                return schema.possibleTypes(of: named).map { SchemaType.named(.object($0)) }
            },
            "enumValues": .value { type, arguments, _ in
                guard case .named(.enumType(let enumType)) = type else { return nil }
                return visible(enumType.values.values, arguments)
            },
            "inputFields": .value { type, arguments, _ in
                guard case .named(.inputObject(let inputObject)) = type else { return nil }
                return visible(inputObject.fields.values, arguments)
            },
            "ofType": .value { type, _, _ in
                switch type {
                case .named: nil
                case .list(let inner), .nonNull(let inner): inner
                }
            },
            "isOneOf": .leaf { type in
                guard case .named(.inputObject(let inputObject)) = type else { return .null }
                return .bool(inputObject.isOneOf)
            },
        ])
        install(introspection.fieldType, SchemaField.self, [
            "name": .leaf { field in .string(field.name) },
            "description": .leaf { field in JSON(field.description) },
            "args": .value { field, arguments, _ in visible(field.arguments, arguments) },
            "type": .value { field, _, _ in field.type },
            "isDeprecated": .leaf { field in .bool(field.isDeprecated) },
            "deprecationReason": .leaf { field in JSON(field.deprecationReason) },
        ])
        install(introspection.inputValueType, InputValue.self, [
            "name": .leaf { value in .string(value.name) },
            "description": .leaf { value in JSON(value.description) },
            "type": .value { value, _, _ in value.type },
            "defaultValue": .leaf { value in JSON(printedDefaultValue(of: value)) },
            "isDeprecated": .leaf { value in .bool(value.isDeprecated) },
            "deprecationReason": .leaf { value in JSON(value.deprecationReason) },
        ])
        install(introspection.enumValueType, EnumValue.self, [
            "name": .leaf { value in .string(value.name) },
            "description": .leaf { value in JSON(value.description) },
            "isDeprecated": .leaf { value in .bool(value.isDeprecated) },
            "deprecationReason": .leaf { value in JSON(value.deprecationReason) },
        ])
        install(introspection.directiveType, SchemaDirective.self, [
            "name": .leaf { directive in .string(directive.name) },
            "description": .leaf { directive in JSON(directive.description) },
            "isRepeatable": .leaf { directive in .bool(directive.isRepeatable) },
            "locations": .leaf { directive in .array(directive.locations.map { .string($0.rawValue) }) },
            "args": .value { directive, arguments, _ in visible(directive.arguments, arguments) },
        ])
    }
}

/// How an introspection field is resolved from its parent value.
private enum Body<Source>: Sendable {
    /// Through the general path: a value the executor completes (objects, lists of objects).
    case value(@Sendable (Source, Arguments, Schema) -> Any?)
    /// Straight to the result-coerced JSON of a scalar or enum field.
    case leaf(@Sendable (Source) -> JSON)
}

extension JSON {
    /// A string, or `null` for `nil`.
    fileprivate init(_ string: String?) {
        self = string.map(JSON.string) ?? .null
    }
}

private func named(_ type: SchemaType) -> NamedType? {
    if case .named(let named) = type { return named }
    return nil
}

/// Schema elements that can be deprecated.
private protocol Deprecatable {
    var isDeprecated: Bool { get }
}

extension SchemaField: Deprecatable {}
extension InputValue: Deprecatable {}
extension EnumValue: Deprecatable {}

/// The elements, without deprecated ones unless `includeDeprecated: true`.
private func visible<Element: Deprecatable>(_ elements: [Element], _ arguments: Arguments) -> [Element] {
    if arguments.bool("includeDeprecated") == true { return elements }
    return elements.filter { !$0.isDeprecated }
}

/// `__InputValue.defaultValue`: the default as a GraphQL literal (graphql-js prints
/// `astFromValue` of the coerced default).
private func printedDefaultValue(of value: InputValue) -> String? {
    if let defaultValue = value.defaultValue, let literal = astFromValue(defaultValue, type: value.type) {
        return Printer.print(literal)
    }
    return value.defaultLiteral.map(Printer.print)
}
