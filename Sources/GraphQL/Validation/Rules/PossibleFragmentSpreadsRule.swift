extension ValidationRule {
    /// Fragment Spread Is Possible (spec 5.5.2.3): a fragment applies to some object the
    /// enclosing selection can return.
    public static let possibleFragmentSpreads = ValidationRule(
        name: "PossibleFragmentSpreads", visitsLeave: false, nodeKinds: [.inlineFragment, .fragmentSpread]
    ) { _ in
        PossibleFragmentSpreadsRule()
    }
}

final class PossibleFragmentSpreadsRule: ValidationRuleVisitor {
    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .inlineFragment(let fragment):
            guard let fragmentType = context.type?.namedType, fragmentType.isCompositeType,
                  let parentType = context.parentType,
                  !context.schema.typesOverlap(fragmentType, parentType) else { return .continue }
            context.report(
                "Fragment cannot be spread here as objects of type \"\(parentType.name)\" can never be of type \"\(fragmentType.name)\".",
                at: [fragment.location])
        case .fragmentSpread(let spread):
            let name = spread.name.value
            guard let fragment = context.fragment(named: name),
                  let fragmentType = context.schema.type(named: fragment.typeCondition.value), fragmentType.isCompositeType,
                  let parentType = context.parentType,
                  !context.schema.typesOverlap(fragmentType, parentType) else { return .continue }
            context.report(
                "Fragment \"\(name)\" cannot be spread here as objects of type \"\(parentType.name)\" can never be of type \"\(fragmentType.name)\".",
                at: [spread.location])
        default:
            break
        }
        return .continue
    }
}
