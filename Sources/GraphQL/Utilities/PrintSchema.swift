/// Prints a schema as SDL in graphql-js's `printSchema` format: the schema definition only
/// when there is a description or a root type has a non-default name, then custom directives,
/// then every type except the built-in scalars and introspection types, separated by blank
/// lines, without a trailing newline. Descriptions print as block strings where possible,
/// `@deprecated` with its reason unless it is the default, `@specifiedBy(url:)` and `@oneOf`.
///
/// The output builds back (`buildSchema(sdl:)`) to an equivalent schema.
public func printSchema(_ schema: Schema) -> String {
    var parts: [String] = []
    if let definition = printSchemaDefinition(schema) { parts.append(definition) }
    for directive in schema.directives where !directive.isSpecified {
        parts.append(printDirective(directive))
    }
    for type in schema.types.values where !type.isSpecifiedScalar && !type.isIntrospectionType {
        parts.append(printType(type))
    }
    return parts.joined(separator: "\n\n")
}

/// Prints one named type as SDL, e.g. `type User implements Node {\n  id: ID!\n}`.
public func printType(_ type: NamedType) -> String {
    switch type {
    case .scalar(let scalar):
        let url = scalar.specifiedByURL.map { " @specifiedBy(url: \(Printer.printString($0)))" } ?? ""
        return printDescription(scalar.description) + "scalar \(scalar.name)" + url
    case .object(let object):
        return printDescription(object.description) + "type \(object.name)"
            + printImplements(object.interfaces) + printFields(object.fields)
    case .interface(let interface):
        return printDescription(interface.description) + "interface \(interface.name)"
            + printImplements(interface.interfaces) + printFields(interface.fields)
    case .union(let union):
        let members = union.types.isEmpty ? "" : " = " + union.types.map(\.name).joined(separator: " | ")
        return printDescription(union.description) + "union \(union.name)" + members
    case .enumType(let enumType):
        let values = enumType.values.values.enumerated().map { index, value in
            printDescription(value.description, indentation: "  ", firstInBlock: index == 0)
                + "  " + value.name + printDeprecated(value.deprecationReason)
        }
        return printDescription(enumType.description) + "enum \(enumType.name)" + printBlock(values)
    case .inputObject(let input):
        let fields = input.fields.values.enumerated().map { index, field in
            printDescription(field.description, indentation: "  ", firstInBlock: index == 0) + "  " + printInputValue(field)
        }
        return printDescription(input.description) + "input \(input.name)" + (input.isOneOf ? " @oneOf" : "")
            + printBlock(fields)
    }
}

/// Prints a directive definition, e.g. `directive @key(fields: String!) repeatable on OBJECT`.
public func printDirective(_ directive: SchemaDirective) -> String {
    printDescription(directive.description) + "directive @" + directive.name + printArguments(directive.arguments)
        + (directive.isRepeatable ? " repeatable" : "") + " on "
        + directive.locations.map(\.rawValue).joined(separator: " | ")
}

private func printSchemaDefinition(_ schema: Schema) -> String? {
    let roots: [(String, ObjectType?, String)] = [
        ("query", schema.queryType, "Query"), ("mutation", schema.mutationType, "Mutation"),
        ("subscription", schema.subscriptionType, "Subscription"),
    ]
    let usesDefaultNames = roots.allSatisfy { _, type, defaultName in type.map { $0.name == defaultName } ?? true }
    if schema.description == nil, usesDefaultNames { return nil }
    let operationTypes = roots.compactMap { operation, type, _ in type.map { "  \(operation): \($0.name)" } }
    return printDescription(schema.description) + "schema {\n" + operationTypes.joined(separator: "\n") + "\n}"
}

private func printImplements(_ interfaces: [InterfaceType]) -> String {
    interfaces.isEmpty ? "" : " implements " + interfaces.map(\.name).joined(separator: " & ")
}

private func printFields(_ fields: OrderedMap<String, SchemaField>) -> String {
    printBlock(fields.values.enumerated().map { index, field in
        printDescription(field.description, indentation: "  ", firstInBlock: index == 0) + "  " + field.name
            + printArguments(field.arguments, indentation: "  ") + ": \(field.type)"
            + printDeprecated(field.deprecationReason)
    })
}

private func printBlock(_ items: [String]) -> String {
    items.isEmpty ? "" : " {\n" + items.joined(separator: "\n") + "\n}"
}

private func printArguments(_ arguments: [InputValue], indentation: String = "") -> String {
    if arguments.isEmpty { return "" }
    if arguments.allSatisfy({ $0.description == nil }) {
        return "(" + arguments.map(printInputValue).joined(separator: ", ") + ")"
    }
    let lines = arguments.enumerated().map { index, argument in
        printDescription(argument.description, indentation: "  " + indentation, firstInBlock: index == 0)
            + "  " + indentation + printInputValue(argument)
    }
    return "(\n" + lines.joined(separator: "\n") + "\n" + indentation + ")"
}

private func printInputValue(_ inputValue: InputValue) -> String {
    var declaration = "\(inputValue.name): \(inputValue.type)"
    if let defaultValue = inputValue.defaultValue, let literal = astFromValue(defaultValue, type: inputValue.type) {
        declaration += " = " + Printer.print(literal)
    } else if let literal = inputValue.defaultLiteral {
        declaration += " = " + Printer.print(literal)
    }
    return declaration + printDeprecated(inputValue.deprecationReason)
}

private func printDeprecated(_ reason: String?) -> String {
    guard let reason else { return "" }
    if reason == SchemaDirective.defaultDeprecationReason { return " @deprecated" }
    return " @deprecated(reason: \(Printer.printString(reason)))"
}

private func printDescription(_ description: String?, indentation: String = "", firstInBlock: Bool = true) -> String {
    guard let description else { return "" }
    let printed = Printer.printString(description, block: true)
    let prefix = !indentation.isEmpty && !firstInBlock ? "\n" + indentation : indentation
    return prefix + printed.replacingNewlines(with: "\n" + indentation) + "\n"
}

extension String {
    fileprivate func replacingNewlines(with replacement: String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
