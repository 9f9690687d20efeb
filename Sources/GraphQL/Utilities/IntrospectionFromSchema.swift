/// The `data` a spec-conforming server returns for `introspectionQuery(…)` with every option
/// on, computed by walking the schema model rather than by executing the query (graphql-js
/// `introspectionFromSchema`).
///
/// Keys and list elements come in the order the query selects them and the schema declares
/// them; deprecated fields, arguments, input fields and enum values are included. Clients and
/// tests use it where no executor is at hand: to serve a schema's introspection from a
/// stand-in endpoint, or to check `buildClientSchema(introspection:)` against `printSchema`.
public func introspectionFromSchema(_ schema: Schema) -> JSON {
    var root = OrderedMap<String, JSON>()
    root["description"] = schema.description.map(JSON.string) ?? JSON.null
    root["queryType"] = rootTypeReference(schema.queryType)
    root["mutationType"] = rootTypeReference(schema.mutationType)
    root["subscriptionType"] = rootTypeReference(schema.subscriptionType)
    root["types"] = .array(schema.types.values.map { fullType($0, in: schema) })
    root["directives"] = .array(schema.directives.map(directive))
    return .object(["__schema": .object(root)])
}

private func rootTypeReference(_ type: ObjectType?) -> JSON {
    guard let type else { return .null }
    return ["name": .string(type.name), "kind": "OBJECT"]
}

private func optionalString(_ text: String?) -> JSON { text.map(JSON.string) ?? .null }

private func fullType(_ type: NamedType, in schema: Schema) -> JSON {
    var object = OrderedMap<String, JSON>()
    object["kind"] = .string(type.kindName)
    object["name"] = .string(type.name)
    object["description"] = optionalString(type.typeDescription)
    if case .scalar(let scalar) = type {
        object["specifiedByURL"] = optionalString(scalar.specifiedByURL)
    } else {
        object["specifiedByURL"] = JSON.null
    }
    if case .inputObject(let input) = type {
        object["isOneOf"] = .bool(input.isOneOf)
    } else {
        object["isOneOf"] = JSON.null
    }
    object["fields"] = type.fields.map { .array($0.values.map(field)) } ?? JSON.null
    if case .inputObject(let input) = type {
        object["inputFields"] = .array(input.fields.values.map(inputValue))
    } else {
        object["inputFields"] = JSON.null
    }
    switch type {
    case .object(let objectType): object["interfaces"] = .array(objectType.interfaces.map { typeReference(.named(.interface($0))) })
    case .interface(let interface): object["interfaces"] = .array(interface.interfaces.map { typeReference(.named(.interface($0))) })
    default: object["interfaces"] = JSON.null
    }
    if case .enumType(let enumType) = type {
        object["enumValues"] = .array(enumType.values.values.map { value in
            ["name": .string(value.name), "description": optionalString(value.description),
             "isDeprecated": .bool(value.isDeprecated), "deprecationReason": optionalString(value.deprecationReason)]
        })
    } else {
        object["enumValues"] = JSON.null
    }
    object["possibleTypes"] = type.isAbstractType
        ? .array(schema.possibleTypes(of: type).map { typeReference(.named(.object($0))) }) : JSON.null
    return .object(object)
}

private func field(_ field: SchemaField) -> JSON {
    ["name": .string(field.name), "description": optionalString(field.description),
     "args": .array(field.arguments.map(inputValue)), "type": typeReference(field.type),
     "isDeprecated": .bool(field.isDeprecated), "deprecationReason": optionalString(field.deprecationReason)]
}

private func inputValue(_ value: InputValue) -> JSON {
    ["name": .string(value.name), "description": optionalString(value.description),
     "type": typeReference(value.type), "defaultValue": optionalString(value.printedDefaultValue),
     "isDeprecated": .bool(value.isDeprecated), "deprecationReason": optionalString(value.deprecationReason)]
}

extension InputValue {
    /// The default as introspection's `__InputValue.defaultValue` gives it: the coerced value
    /// printed as a literal (`{tags: ["a"]}`), or the literal as written when it does not
    /// coerce; nil without a default.
    public var printedDefaultValue: String? {
        if let defaultValue, let literal = astFromValue(defaultValue, type: type) {
            return Printer.print(literal)
        }
        return defaultLiteral.map(Printer.print)
    }
}

private func typeReference(_ type: SchemaType) -> JSON {
    switch type {
    case .named(let named): ["kind": .string(named.kindName), "name": .string(named.name), "ofType": .null]
    case .list(let inner): ["kind": "LIST", "name": .null, "ofType": typeReference(inner)]
    case .nonNull(let inner): ["kind": "NON_NULL", "name": .null, "ofType": typeReference(inner)]
    }
}

private func directive(_ directive: SchemaDirective) -> JSON {
    ["name": .string(directive.name), "description": optionalString(directive.description),
     "isRepeatable": .bool(directive.isRepeatable), "locations": .array(directive.locations.map { .string($0.rawValue) }),
     "args": .array(directive.arguments.map(inputValue))]
}
