extension ValidationRule {
    /// Single Root Field (spec 5.2.3.1): a subscription selects exactly one root field, not an
    /// introspection field, and uses no `@skip` or `@include` in its root selection set.
    public static let singleFieldSubscriptions = ValidationRule(
        name: "SingleFieldSubscriptions", visitsLeave: false, nodeKinds: [.operationDefinition]
    ) { _ in
        SingleFieldSubscriptionsRule()
    }
}

final class SingleFieldSubscriptionsRule: ValidationRuleVisitor {
    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .document: return .continue
        case .operationDefinition(let operation):
            if operation.operation == .subscription, let root = context.schema.subscriptionType {
                check(operation, root, context)
            }
            return .skipChildren
        default: return .skipChildren
        }
    }

    private func check(_ operation: OperationDefinition, _ root: ObjectType, _ context: ValidationContext) {
        let subject = operation.name.map { "Subscription \"\($0.value)\"" } ?? "Anonymous Subscription"
        var fields = OrderedMap<String, [Field]>()
        var visited: Set<String> = []
        var forbidden: [Location] = []
        collect(operation.selectionSet, root, context, &fields, &visited, &forbidden)
        if !forbidden.isEmpty {
            context.report(
                subject + " must not use `@skip` or `@include` directives in the top level selection.", at: forbidden)
            return
        }
        if fields.count == 0 {
            context.report(subject + " must select one top level field.", at: [operation.selectionSet.location])
        } else if fields.count > 1 {
            context.report(
                subject + " must select only one top level field.",
                at: fields.values.dropFirst().flatMap { $0.map(\.location) })
        }
        for group in fields.values where group[0].name.value.hasPrefix("__") {
            context.report(subject + " must not select an introspection top level field.", at: group.map(\.location))
        }
    }

    /// CollectFields of the root selection set without variables, noting `@skip`/`@include`.
    private func collect(
        _ selectionSet: SelectionSet, _ root: ObjectType, _ context: ValidationContext,
        _ fields: inout OrderedMap<String, [Field]>, _ visited: inout Set<String>, _ forbidden: inout [Location]
    ) {
        for selection in selectionSet.selections {
            for directive in selection.directives where directive.name.value == "skip" || directive.name.value == "include" {
                forbidden.append(directive.location)
            }
            switch selection {
            case .field(let field):
                var group = fields[field.responseKey] ?? []
                group.append(field)
                fields[field.responseKey] = group
            case .inlineFragment(let fragment):
                if let condition = fragment.typeCondition, !applies(condition.value, to: root, context.schema) { continue }
                collect(fragment.selectionSet, root, context, &fields, &visited, &forbidden)
            case .fragmentSpread(let spread):
                guard visited.insert(spread.name.value).inserted, let fragment = context.fragment(named: spread.name.value),
                      applies(fragment.typeCondition.value, to: root, context.schema) else { continue }
                collect(fragment.selectionSet, root, context, &fields, &visited, &forbidden)
            }
        }
    }

    private func applies(_ condition: String, to root: ObjectType, _ schema: Schema) -> Bool {
        guard let type = schema.type(named: condition) else { return false }
        if case .object(let object) = type { return object === root }
        return schema.isSubType(.object(root), of: type)
    }
}
