/// Prints syntax trees back to GraphQL text in graphql-js's `print` format: two-space
/// indentation, one selection per line, arguments wrapped when a field's line exceeds 80
/// characters, and strings escaped so that the output parses back to the same tree.
public enum Printer {
    private static let maxLineLength = 80

    /// Prints a whole document; definitions are separated by a blank line.
    public static func print(_ document: Document) -> String {
        join(document.definitions.map(print), "\n\n")
    }

    /// Prints one definition.
    public static func print(_ definition: Definition) -> String {
        switch definition {
        case .operation(let node): print(node)
        case .fragment(let node): print(node)
        case .schema(let node): printSchema(node, isExtension: false)
        case .type(let node): print(node, isExtension: false)
        case .directive(let node): print(node)
        case .schemaExtension(let node): printSchema(node, isExtension: true)
        case .typeExtension(let node): print(node, isExtension: true)
        }
    }

    /// Prints an operation; an anonymous query without variables or directives in shorthand.
    public static func print(_ node: OperationDefinition) -> String {
        let variables = printVariableDefinitions(node.variableDefinitions)
        let prefix = join(
            [node.operation.rawValue, join([node.name?.value, variables]), printDirectives(node.directives)], " ")
        // A description rules out the shorthand form, which cannot carry one.
        let head = prefix == "query" && node.description == nil ? "" : prefix + " "
        return wrap("", node.description.map(print), "\n") + head + print(node.selectionSet)
    }

    /// Prints a fragment definition.
    public static func print(_ node: FragmentDefinition) -> String {
        wrap("", node.description.map(print), "\n") + "fragment \(node.name.value) on \(node.typeCondition.value) "
            + wrap("", printDirectives(node.directives), " ") + print(node.selectionSet)
    }

    /// Prints a selection set as an indented block.
    public static func print(_ node: SelectionSet) -> String {
        block(node.selections.map(print))
    }

    /// Prints one selection.
    public static func print(_ selection: Selection) -> String {
        switch selection {
        case .field(let field):
            let prefix = wrap("", field.alias?.value, ": ") + field.name.value
            let arguments = field.arguments.map(print)
            var line = prefix + wrap("(", join(arguments, ", "), ")")
            if line.utf16.count > maxLineLength {
                line = prefix + wrap("(\n", indent(join(arguments, "\n")), "\n)")
            }
            return join([line, printDirectives(field.directives), field.selectionSet.map(print)], " ")
        case .fragmentSpread(let spread):
            return "..." + spread.name.value + wrap(" ", printDirectives(spread.directives))
        case .inlineFragment(let fragment):
            return join(
                ["...", wrap("on ", fragment.typeCondition?.value), printDirectives(fragment.directives),
                 print(fragment.selectionSet)], " ")
        }
    }

    /// Prints a value literal, e.g. `{a: [1, $b]}`.
    public static func print(_ value: Value) -> String {
        switch value.kind {
        case .variable(let name): "$" + name
        case .int(let text), .float(let text): text
        case .string(let string, let block): printString(string, block: block)
        case .boolean(let boolean): boolean ? "true" : "false"
        case .null: "null"
        case .enumValue(let name): name
        case .list(let items): "[" + join(items.map(print), ", ") + "]"
        case .object(let fields): "{" + join(fields.map { $0.name.value + ": " + print($0.value) }, ", ") + "}"
        }
    }

    /// Prints a type reference, e.g. `[String!]!`.
    public static func print(_ type: TypeReference) -> String { type.description }

    /// Prints a directive application.
    public static func print(_ directive: Directive) -> String {
        "@" + directive.name.value + wrap("(", join(directive.arguments.map(print), ", "), ")")
    }

    /// Prints a string literal: as a block string when `block` is set and the value can be
    /// printed as one (see `BlockString.isPrintable`), otherwise quoted with escapes.
    public static func printString(_ value: String, block: Bool = false) -> String {
        if block && BlockString.isPrintable(value) { return BlockString.print(value) }
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x22: result += "\\\""
            case 0x5C: result += "\\\\"
            case 0x08: result += "\\b"
            case 0x09: result += "\\t"
            case 0x0A: result += "\\n"
            case 0x0C: result += "\\f"
            case 0x0D: result += "\\r"
            case 0x00...0x1F, 0x7F...0x9F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    // MARK: - Pieces

    private static func print(_ description: StringValue) -> String {
        printString(description.value, block: description.block)
    }

    private static func print(_ argument: Argument) -> String {
        argument.name.value + ": " + print(argument.value)
    }

    private static func printDirectives(_ directives: [Directive]) -> String {
        join(directives.map(print), " ")
    }

    private static func printVariableDefinitions(_ definitions: [VariableDefinition]) -> String {
        let printed = definitions.map { definition in
            wrap("", definition.description.map(print), "\n") + "$" + definition.variable.name.value + ": "
                + print(definition.type) + wrap(" = ", definition.defaultValue.map(print))
                + wrap(" ", printDirectives(definition.directives))
        }
        if printed.contains(where: { $0.contains("\n") }) {
            return wrap("(\n", indent(join(printed, "\n")), "\n)")
        }
        return wrap("(", join(printed, ", "), ")")
    }

    private static func printSchema(_ node: SchemaDefinition, isExtension: Bool) -> String {
        let operationTypes = node.operationTypes.map { "\($0.operation.rawValue): \($0.type.value)" }
        return wrap("", node.description.map(print), "\n")
            + join([isExtension ? "extend schema" : "schema", printDirectives(node.directives), block(operationTypes)], " ")
    }

    private static func print(_ node: TypeDefinition, isExtension: Bool) -> String {
        let keyword: String
        var parts: [String] = []
        switch node {
        case .scalar:
            keyword = "scalar"
            parts = [printDirectives(node.directives)]
        case .object(let object):
            keyword = "type"
            parts = [
                wrap("implements ", join(object.interfaces.map(\.value), " & ")), printDirectives(node.directives),
                block(object.fields.map(print)),
            ]
        case .interface(let interface):
            keyword = "interface"
            parts = [
                wrap("implements ", join(interface.interfaces.map(\.value), " & ")), printDirectives(node.directives),
                block(interface.fields.map(print)),
            ]
        case .union(let union):
            keyword = "union"
            parts = [printDirectives(node.directives), wrap("= ", join(union.types.map(\.value), " | "))]
        case .enumType(let enumType):
            keyword = "enum"
            parts = [printDirectives(node.directives), block(enumType.values.map(print))]
        case .inputObject(let inputObject):
            keyword = "input"
            parts = [printDirectives(node.directives), block(inputObject.fields.map(print))]
        }
        let head = (isExtension ? "extend " : "") + keyword
        return wrap("", node.description.map(print), "\n") + join([head, node.name.value] + parts, " ")
    }

    private static func print(_ node: FieldDefinition) -> String {
        wrap("", node.description.map(print), "\n") + node.name.value + printArgumentDefinitions(node.arguments)
            + ": " + print(node.type) + wrap(" ", printDirectives(node.directives))
    }

    private static func print(_ node: InputValueDefinition) -> String {
        wrap("", node.description.map(print), "\n")
            + join(
                [node.name.value + ": " + print(node.type), wrap("= ", node.defaultValue.map(print)),
                 printDirectives(node.directives)], " ")
    }

    private static func print(_ node: EnumValueDefinition) -> String {
        wrap("", node.description.map(print), "\n") + join([node.name.value, printDirectives(node.directives)], " ")
    }

    private static func print(_ node: DirectiveDefinition) -> String {
        wrap("", node.description.map(print), "\n") + "directive @" + node.name.value
            + printArgumentDefinitions(node.arguments) + (node.isRepeatable ? " repeatable" : "") + " on "
            + join(node.locations.map(\.value), " | ")
    }

    private static func printArgumentDefinitions(_ arguments: [InputValueDefinition]) -> String {
        let printed = arguments.map(print)
        if printed.contains(where: { $0.contains("\n") }) {
            return wrap("(\n", indent(join(printed, "\n")), "\n)")
        }
        return wrap("(", join(printed, ", "), ")")
    }

    // MARK: - graphql-js's string helpers

    /// Joins the non-empty strings.
    private static func join(_ parts: [String?], _ separator: String = "") -> String {
        parts.compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: separator)
    }

    /// Each item on its own line inside an indented `{ }` block; empty for no items.
    private static func block(_ items: [String]) -> String {
        wrap("{\n", indent(join(items, "\n")), "\n}")
    }

    /// `start + string + end`, or empty when the string is absent or empty.
    private static func wrap(_ start: String, _ string: String?, _ end: String = "") -> String {
        guard let string, !string.isEmpty else { return "" }
        return start + string + end
    }

    private static func indent(_ string: String) -> String {
        wrap("  ", string.replacing("\n", with: "\n  "))
    }
}
