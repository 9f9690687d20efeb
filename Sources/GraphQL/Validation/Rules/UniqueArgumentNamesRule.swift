extension ValidationRule {
    /// Argument Uniqueness (spec 5.4.2): no two arguments of a field or directive share a name.
    public static let uniqueArgumentNames = ValidationRule(
        name: "UniqueArgumentNames", visitsLeave: false, nodeKinds: [.field, .directive, .variableDefinition]
    ) { _ in
        UniqueArgumentNamesRule()
    }
}

final class UniqueArgumentNamesRule: ValidationRuleVisitor {
    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .field(let field): check(field.arguments, context)
        case .directive(let directive):
            check(directive.arguments, context)
            return .skipChildren
        case .argument, .variableDefinition: return .skipChildren
        default: break
        }
        return .continue
    }

    private func check(_ arguments: [Argument], _ context: ValidationContext) {
        guard arguments.count > 1 else { return }
        var order: [String] = []
        var groups: [String: [Location]] = [:]
        for argument in arguments {
            if groups[argument.name.value] == nil { order.append(argument.name.value) }
            groups[argument.name.value, default: []].append(argument.name.location)
        }
        for name in order where groups[name]!.count > 1 {
            context.report("There can be only one argument named \"\(name)\".", at: groups[name]!)
        }
    }
}
