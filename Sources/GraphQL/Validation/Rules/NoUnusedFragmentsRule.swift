extension ValidationRule {
    /// Fragments Must Be Used (spec 5.5.1.4): every fragment is used by some operation.
    public static let noUnusedFragments = ValidationRule(
        name: "NoUnusedFragments", nodeKinds: [.document]
    ) { _ in
        NoUnusedFragmentsRule()
    }
}

final class NoUnusedFragmentsRule: ValidationRuleVisitor {
    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        if case .document = node { return .continue }
        return .skipChildren
    }

    func leave(_ node: ASTNode, context: ValidationContext) {
        guard case .document(let document) = node else { return }
        var used: Set<String> = []
        for case .operation(let operation) in document.definitions {
            for fragment in context.recursivelyReferencedFragments(of: operation) { used.insert(fragment.name.value) }
        }
        for case .fragment(let fragment) in document.definitions where !used.contains(fragment.name.value) {
            context.report("Fragment \"\(fragment.name.value)\" is never used.", at: [fragment.location])
        }
    }
}
