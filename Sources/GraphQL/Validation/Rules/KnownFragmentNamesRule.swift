extension ValidationRule {
    /// Fragment Spread Target Defined (spec 5.5.2.1): every spread names a fragment of the
    /// document.
    public static let knownFragmentNames = ValidationRule(
        name: "KnownFragmentNames", visitsLeave: false, nodeKinds: [.fragmentSpread]
    ) { _ in
        KnownFragmentNamesRule()
    }
}

final class KnownFragmentNamesRule: ValidationRuleVisitor {
    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        if case .fragmentSpread(let spread) = node, context.fragment(named: spread.name.value) == nil {
            context.report("Unknown fragment \"\(spread.name.value)\".", at: [spread.name.location])
        }
        return .continue
    }
}
