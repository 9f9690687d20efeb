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

        func install<Source>(
            _ type: ObjectType, _ source: Source.Type,
            _ fields: [String: @Sendable (Source, Arguments, Schema) -> Any?]
        ) {
            for (name, body) in fields {
                guard let field = type.fields[name] else { continue }
                resolvers.resolve(field) { value, arguments, _, info in
                    guard let value = value as? Source else {
                        throw GraphQLError(message: "\(type.name).\(name) cannot resolve from \(Swift.type(of: value)).")
                    }
                    return .value(body(value, arguments, info.schema))
                }
            }
        }

        install(introspection.schemaType, Schema.self, [
            "description": { schema, _, _ in schema.description },
            "types": { schema, _, _ in schema.types.values.map(SchemaType.named) },
            "queryType": { schema, _, _ in schema.queryType.map { SchemaType.named(.object($0)) } },
            "mutationType": { schema, _, _ in schema.mutationType.map { SchemaType.named(.object($0)) } },
            "subscriptionType": { schema, _, _ in schema.subscriptionType.map { SchemaType.named(.object($0)) } },
            "directives": { schema, _, _ in schema.directives },
        ])
        install(introspection.typeType, SchemaType.self, [
            "kind": { type, _, _ in
                switch type {
                case .named(let named): named.kindName
                case .list: "LIST"
                case .nonNull: "NON_NULL"
                }
            },
            "name": { type, _, _ in named(type)?.name },
            "description": { type, _, _ in named(type)?.typeDescription },
            "specifiedByURL": { type, _, _ in
                if case .named(.scalar(let scalar)) = type { return scalar.specifiedByURL }
                return nil
            },
            "fields": { type, arguments, _ in
                guard let fields = named(type)?.fields else { return nil }
                return visible(fields.values, arguments)
            },
            "interfaces": { type, _, _ in
                switch type {
                case .named(.object(let object)): object.interfaces.map { SchemaType.named(.interface($0)) }
                case .named(.interface(let interface)): interface.interfaces.map { SchemaType.named(.interface($0)) }
                default: nil
                }
            },
            "possibleTypes": { type, _, schema in
                guard let named = named(type), named.isAbstractType else { return nil }
                return schema.possibleTypes(of: named).map { SchemaType.named(.object($0)) }
            },
            "enumValues": { type, arguments, _ in
                guard case .named(.enumType(let enumType)) = type else { return nil }
                return visible(enumType.values.values, arguments)
            },
            "inputFields": { type, arguments, _ in
                guard case .named(.inputObject(let inputObject)) = type else { return nil }
                return visible(inputObject.fields.values, arguments)
            },
            "ofType": { type, _, _ in
                switch type {
                case .named: nil
                case .list(let inner), .nonNull(let inner): inner
                }
            },
            "isOneOf": { type, _, _ in
                guard case .named(.inputObject(let inputObject)) = type else { return nil }
                return inputObject.isOneOf
            },
        ])
        install(introspection.fieldType, SchemaField.self, [
            "name": { field, _, _ in field.name },
            "description": { field, _, _ in field.description },
            "args": { field, arguments, _ in visible(field.arguments, arguments) },
            "type": { field, _, _ in field.type },
            "isDeprecated": { field, _, _ in field.isDeprecated },
            "deprecationReason": { field, _, _ in field.deprecationReason },
        ])
        install(introspection.inputValueType, InputValue.self, [
            "name": { value, _, _ in value.name },
            "description": { value, _, _ in value.description },
            "type": { value, _, _ in value.type },
            "defaultValue": { value, _, _ in printedDefaultValue(of: value) },
            "isDeprecated": { value, _, _ in value.isDeprecated },
            "deprecationReason": { value, _, _ in value.deprecationReason },
        ])
        install(introspection.enumValueType, EnumValue.self, [
            "name": { value, _, _ in value.name },
            "description": { value, _, _ in value.description },
            "isDeprecated": { value, _, _ in value.isDeprecated },
            "deprecationReason": { value, _, _ in value.deprecationReason },
        ])
        install(introspection.directiveType, SchemaDirective.self, [
            "name": { directive, _, _ in directive.name },
            "description": { directive, _, _ in directive.description },
            "isRepeatable": { directive, _, _ in directive.isRepeatable },
            "locations": { directive, _, _ in directive.locations.map(\.rawValue) },
            "args": { directive, arguments, _ in visible(directive.arguments, arguments) },
        ])
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
