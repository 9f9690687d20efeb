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

        func install<Member: CaseIterable & RawRepresentable<String>>(
            _ type: ObjectType, _: Member.Type, _ field: (Member) -> IntrospectionField
        ) {
            for member in Member.allCases {
                if let definition = type.fields[member.rawValue] { resolvers.attach(.introspection(field(member)), to: definition) }
            }
        }
        install(introspection.schemaType, IntrospectionField.OfSchema.self, IntrospectionField.schema)
        install(introspection.typeType, IntrospectionField.OfType.self, IntrospectionField.type)
        install(introspection.fieldType, IntrospectionField.OfField.self, IntrospectionField.field)
        install(introspection.inputValueType, IntrospectionField.OfInputValue.self, IntrospectionField.inputValue)
        install(introspection.enumValueType, IntrospectionField.OfEnumValue.self, IntrospectionField.enumValue)
        install(introspection.directiveType, IntrospectionField.OfDirective.self, IntrospectionField.directive)
    }
}

/// A field of an introspection type, resolved by the executor itself: the parent value is
/// cast once, leaves are written straight into the response, and lists are completed from
/// their typed arrays (no closure, no intermediate `JSON`, no dynamic cast to `Sequence`).
enum IntrospectionField: Sendable {
    case schema(OfSchema)
    case type(OfType)
    case field(OfField)
    case inputValue(OfInputValue)
    case enumValue(OfEnumValue)
    case directive(OfDirective)

    /// The fields of `__Schema`.
    enum OfSchema: String, CaseIterable, Sendable {
        case description, types, queryType, mutationType, subscriptionType, directives
    }

    /// The fields of `__Type`.
    enum OfType: String, CaseIterable, Sendable {
        case kind, name, description, specifiedByURL, fields, interfaces, possibleTypes, enumValues, inputFields, ofType, isOneOf
    }

    /// The fields of `__Field`.
    enum OfField: String, CaseIterable, Sendable {
        case name, description, args, type, isDeprecated, deprecationReason
    }

    /// The fields of `__InputValue`.
    enum OfInputValue: String, CaseIterable, Sendable {
        case name, description, type, defaultValue, isDeprecated, deprecationReason
    }

    /// The fields of `__EnumValue`.
    enum OfEnumValue: String, CaseIterable, Sendable {
        case name, description, isDeprecated, deprecationReason
    }

    /// The fields of `__Directive`.
    enum OfDirective: String, CaseIterable, Sendable {
        case name, description, isRepeatable, locations, args
    }
}

extension ExecutionContext {
    /// Completes an introspection field of `source`, writing its value; `false` when it
    /// failed (the failure propagates as for any field).
    func completeIntrospection(
        _ member: IntrospectionField, _ field: FieldPlan, _ parentType: ObjectType, _ source: Any
    ) throws(GraphQLError) -> Bool {
        if try writeIntrospectionLeaf(member, field, parentType, source) { return true }
        func cast<Source>(_: Source.Type) throws(GraphQLError) -> Source {
            try introspectionSource(source, as: Source.self, field, parentType)
        }
        /// Completes an object-typed value through the general path.
        func object(_ value: Any?) -> Bool { completeValue(field.returnType, field, parentType, value) }
        func list<Items: Collection>(_ items: Items?) -> Bool { completeIntrospectionList(items, field, parentType) }
        func visible<Element: Deprecatable>(_ elements: [Element]) throws(GraphQLError) -> [Element] {
            if try arguments(of: field).bool("includeDeprecated") == true { return elements }
            return elements.filter { !$0.isDeprecated }
        }

        switch member {
        case .schema(let member):
            let schema = try cast(Schema.self)
            switch member {
            case .types: return list(schema.types.values.lazy.map(SchemaType.named))
            case .queryType: return object(schema.queryType.map { SchemaType.named(.object($0)) })
            case .mutationType: return object(schema.mutationType.map { SchemaType.named(.object($0)) })
            case .subscriptionType: return object(schema.subscriptionType.map { SchemaType.named(.object($0)) })
            case .directives: return list(schema.directives)
            case .description: break
            }
        case .type(let member):
            let type = try cast(SchemaType.self)
            let named: NamedType? = if case .named(let named) = type { named } else { nil }
            switch member {
            case .fields:
                return list(try named?.fields.map { fields throws(GraphQLError) in try visible(fields.values) })
            case .interfaces:
                switch named {
                case .object(let object): return list(object.interfaces.lazy.map { SchemaType.named(.interface($0)) })
                case .interface(let interface): return list(interface.interfaces.lazy.map { SchemaType.named(.interface($0)) })
                default: output.null()
                }
            case .possibleTypes:
                guard let named, named.isAbstractType else {
                    output.null()
                    return true
                }
                return list(request.schema.possibleTypes(of: named).lazy.map { SchemaType.named(.object($0)) })
            case .enumValues:
                guard case .enumType(let enumType) = named else {
                    output.null()
                    return true
                }
                return list(try visible(enumType.values.values))
            case .inputFields:
                guard case .inputObject(let inputObject) = named else {
                    output.null()
                    return true
                }
                return list(try visible(inputObject.fields.values))
            case .ofType:
                switch type {
                case .named: output.null()
                case .list(let inner), .nonNull(let inner): return object(inner)
                }
            case .kind, .name, .description, .specifiedByURL, .isOneOf: break
            }
        case .field(let member):
            let schemaField = try cast(SchemaField.self)
            switch member {
            case .args: return list(try visible(schemaField.arguments))
            case .type: return object(schemaField.type)
            case .name, .description, .isDeprecated, .deprecationReason: break
            }
        case .inputValue(let member):
            if case .type = member { return object(try cast(InputValue.self).type) }
        case .enumValue:
            break
        case .directive(let member):
            if case .args = member { return list(try visible(try cast(SchemaDirective.self).arguments)) }
        }
        return true
    }

    /// Writes an introspection field whose value is a leaf or a list of leaves (a name, a
    /// kind, a description, …), which needs no response path unless it fails; `false`, with
    /// nothing written, when `member` is not such a field.
    func writeIntrospectionLeaf(
        _ member: IntrospectionField, _ field: FieldPlan, _ parentType: ObjectType, _ source: Any
    ) throws(GraphQLError) -> Bool {
        switch member {
        case .schema(let member):
            guard case .description = member else { return false }
            try withIntrospectionSource(source, as: Schema.self, field, parentType) { output.optionalString($0.description) }
        case .type(let member):
            switch member {
            case .kind, .name, .description, .specifiedByURL, .isOneOf: break
            case .fields, .interfaces, .possibleTypes, .enumValues, .inputFields, .ofType: return false
            }
            try withIntrospectionSource(source, as: SchemaType.self, field, parentType) { type in
                guard case .named(let named) = type else {
                    switch member {
                    case .kind: output.string(type.isNonNull ? "NON_NULL" : "LIST")
                    default: output.null()
                    }
                    return
                }
                switch member {
                case .kind: output.string(named.kindName)
                case .name: output.string(quoted: named.quoted.name)
                case .description: output.string(quoted: named.quoted.description)
                case .specifiedByURL:
                    if case .scalar(let scalar) = named { output.optionalString(scalar.specifiedByURL) } else { output.null() }
                case .isOneOf:
                    if case .inputObject(let inputObject) = named { output.bool(inputObject.isOneOf) } else { output.null() }
                default: break
                }
            }
        case .field(let member):
            if case .args = member { return false }
            if case .type = member { return false }
            try withIntrospectionSource(source, as: SchemaField.self, field, parentType) { schemaField in
                switch member {
                case .name: output.string(quoted: schemaField.quoted.name)
                case .description: output.string(quoted: schemaField.quoted.description)
                case .isDeprecated: output.bool(schemaField.isDeprecated)
                case .deprecationReason: output.optionalString(schemaField.deprecationReason)
                case .args, .type: break
                }
            }
        case .inputValue(let member):
            if case .type = member { return false }
            try withIntrospectionSource(source, as: InputValue.self, field, parentType) { value in
                switch member {
                case .name: output.string(quoted: value.quoted.name)
                case .description: output.string(quoted: value.quoted.description)
                case .defaultValue: output.optionalString(printedDefaultValue(of: value))
                case .isDeprecated: output.bool(value.isDeprecated)
                case .deprecationReason: output.optionalString(value.deprecationReason)
                case .type: break
                }
            }
        case .enumValue(let member):
            try withIntrospectionSource(source, as: EnumValue.self, field, parentType) { value in
                switch member {
                case .name: output.string(quoted: value.quoted.name)
                case .description: output.string(quoted: value.quoted.description)
                case .isDeprecated: output.bool(value.isDeprecated)
                case .deprecationReason: output.optionalString(value.deprecationReason)
                }
            }
        case .directive(let member):
            if case .args = member { return false }
            try withIntrospectionSource(source, as: SchemaDirective.self, field, parentType) { directive in
                switch member {
                case .name: output.string(quoted: directive.quoted.name)
                case .description: output.string(quoted: directive.quoted.description)
                case .isRepeatable: output.bool(directive.isRepeatable)
                case .locations:
                    output.beginArray()
                    for location in directive.locations { output.string(location.rawValue) }
                    output.endArray()
                case .args: break
                }
            }
        }
        return true
    }

    /// The parent value of an introspection field as the type its introspection type
    /// resolves from.
    private func introspectionSource<Source>(
        _ source: Any, as _: Source.Type, _ field: FieldPlan, _ parentType: ObjectType
    ) throws(GraphQLError) -> Source {
        try withIntrospectionSource(source, as: Source.self, field, parentType) { copy $0 }
    }

    /// `body` applied to the parent value of an introspection field as the type its
    /// introspection type resolves from: borrowed where it lies when it is exactly that type
    /// (no copy, so no retain), cast otherwise.
    private func withIntrospectionSource<Source, Result>(
        _ source: Any, as _: Source.Type, _ field: FieldPlan, _ parentType: ObjectType, _ body: (borrowing Source) -> Result
    ) throws(GraphQLError) -> Result {
        if let result = withExactValue(source as Any, as: Source.self, body) { return result }
        guard let value = source as? Source else {
            throw GraphQLError(message: "\(parentType.name).\(field.definition.name) cannot resolve from \(Swift.type(of: source)).")
        }
        return body(value)
    }

    /// Completes a list-typed introspection field from its items (`nil` for `null`).
    private func completeIntrospectionList<Items: Collection>(
        _ items: Items?, _ field: FieldPlan, _ parentType: ObjectType
    ) -> Bool {
        guard let items else {
            if field.returnType.isNonNull { return nullInNonNullField(field, parentType) }
            output.null()
            return true
        }
        guard case .list(let itemType) = field.returnType.nullableType else {
            return completeValue(field.returnType, field, parentType, Array(items))
        }
        if field.returnType.isNonNull { return completeItems(items, itemType, field, parentType) }
        return nullable { completeItems(items, itemType, field, parentType) }
    }
}

/// Schema elements that can be deprecated.
protocol Deprecatable {
    var isDeprecated: Bool { get }
}

extension SchemaField: Deprecatable {}
extension InputValue: Deprecatable {}
extension EnumValue: Deprecatable {}

/// `__InputValue.defaultValue`: the default as a GraphQL literal (graphql-js prints
/// `astFromValue` of the coerced default).
private func printedDefaultValue(of value: InputValue) -> String? {
    if let defaultValue = value.defaultValue, let literal = astFromValue(defaultValue, type: value.type) {
        return Printer.print(literal)
    }
    return value.defaultLiteral.map(Printer.print)
}
