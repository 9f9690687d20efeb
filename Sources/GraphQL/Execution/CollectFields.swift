/// Spec CollectFields (6.3.2): the fields of `selectionSet` that apply to `objectType`,
/// grouped by response key in document order, after `@skip`/`@include` and fragment type
/// conditions. Fragment spreads are followed once each.
func collectFields(
    objectType: ObjectType, selectionSet: SelectionSet, schema: Schema,
    fragments: [String: FragmentDefinition], variables: [String: JSON],
    visitedFragments: inout Set<String>, into fields: inout OrderedMap<String, [Field]>
) {
    for selection in selectionSet.selections {
        if !selection.directives.isEmpty, !shouldInclude(selection.directives, variables: variables) { continue }
        switch selection {
        case .field(let field):
            let key = field.responseKey
            if let position = fields.index(forKey: key) {
                fields.storedValues[position].append(field)
            } else {
                fields[key] = [field]
            }
        case .fragmentSpread(let spread):
            let name = spread.name.value
            guard !visitedFragments.contains(name) else { continue }
            visitedFragments.insert(name)
            guard let fragment = fragments[name],
                  doesFragmentTypeApply(objectType, condition: fragment.typeCondition.value, schema: schema)
            else { continue }
            collectFields(
                objectType: objectType, selectionSet: fragment.selectionSet, schema: schema, fragments: fragments,
                variables: variables, visitedFragments: &visitedFragments, into: &fields)
        case .inlineFragment(let fragment):
            if let condition = fragment.typeCondition,
               !doesFragmentTypeApply(objectType, condition: condition.value, schema: schema) {
                continue
            }
            collectFields(
                objectType: objectType, selectionSet: fragment.selectionSet, schema: schema, fragments: fragments,
                variables: variables, visitedFragments: &visitedFragments, into: &fields)
        }
    }
}

/// Spec DoesFragmentTypeApply: the object type is the condition, implements it, or is a
/// member of it.
func doesFragmentTypeApply(_ objectType: ObjectType, condition: String, schema: Schema) -> Bool {
    guard let type = schema.type(named: condition) else { return false }
    switch type {
    case .object(let object): return object === objectType
    case .interface, .union: return schema.isPossibleType(objectType, of: type)
    default: return false
    }
}

/// Whether `@skip(if:)` and `@include(if:)` among `directives` let a selection through.
func shouldInclude(_ directives: [Directive], variables: [String: JSON]) -> Bool {
    for directive in directives {
        switch directive.name.value {
        case "skip": if condition(of: directive, variables: variables) == true { return false }
        case "include": if condition(of: directive, variables: variables) == false { return false }
        default: break
        }
    }
    return true
}

private func condition(of directive: Directive, variables: [String: JSON]) -> Bool? {
    guard let argument = directive.arguments.first(where: { $0.name.value == "if" }) else { return nil }
    switch argument.value.kind {
    case .boolean(let value): return value
    case .variable(let name):
        if case .bool(let value) = variables[name] { return value }
        return nil
    default: return nil
    }
}

/// Whether any `@skip`/`@include` in the operation or its fragments takes a variable, in
/// which case the fields collected depend on the request and cannot be shared.
func collectionDependsOnVariables(_ operation: OperationDefinition, fragments: [String: FragmentDefinition]) -> Bool {
    func check(_ selectionSet: SelectionSet) -> Bool {
        for selection in selectionSet.selections {
            for directive in selection.directives where directive.name.value == "skip" || directive.name.value == "include" {
                if directive.arguments.contains(where: { if case .variable = $0.value.kind { true } else { false } }) {
                    return true
                }
            }
            switch selection {
            case .field(let field): if let set = field.selectionSet, check(set) { return true }
            case .inlineFragment(let fragment): if check(fragment.selectionSet) { return true }
            case .fragmentSpread: break
            }
        }
        return false
    }
    return check(operation.selectionSet) || fragments.values.contains { check($0.selectionSet) }
}
