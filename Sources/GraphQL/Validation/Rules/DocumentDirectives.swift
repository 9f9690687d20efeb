/// What the rules about directive uses need to know of a directive, whether the schema
/// defines it or a directive definition in the document does (such a definition is itself
/// reported as not executable; its uses are checked against it rather than reported again).
struct DirectiveSignature {
    let locations: Set<String>
    let isRepeatable: Bool
    let argumentNames: [String]
    /// The required arguments with their types as written.
    let requiredArguments: [(name: String, type: String)]

    /// The schema's directives overridden by the document's directive definitions, by name.
    static func all(in context: ValidationContext) -> [String: DirectiveSignature] {
        var signatures: [String: DirectiveSignature] = [:]
        for directive in context.schema.directives {
            signatures[directive.name] = DirectiveSignature(
                locations: Set(directive.locations.map(\.rawValue)), isRepeatable: directive.isRepeatable,
                argumentNames: directive.arguments.map(\.name),
                requiredArguments: directive.arguments.filter(\.isRequired).map { ($0.name, $0.type.description) })
        }
        for case .directive(let definition) in context.document.definitions {
            signatures[definition.name.value] = DirectiveSignature(
                locations: Set(definition.locations.map(\.value)), isRepeatable: definition.isRepeatable,
                argumentNames: definition.arguments.map(\.name.value),
                requiredArguments: definition.arguments.compactMap { argument in
                    guard case .nonNull = argument.type, argument.defaultValue == nil else { return nil }
                    return (argument.name.value, argument.type.description)
                })
        }
        return signatures
    }
}
