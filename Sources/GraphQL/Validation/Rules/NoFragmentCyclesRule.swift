extension ValidationRule {
    /// Fragment Spreads Must Not Form Cycles (spec 5.5.2.2).
    public static let noFragmentCycles = ValidationRule(
        name: "NoFragmentCycles", visitsLeave: false, nodeKinds: [.fragmentDefinition]
    ) { _ in NoFragmentCyclesRule() }
}

/// Finds each cycle once: a depth-first walk over the spreads of every fragment not visited
/// yet, reporting a spread that leads back to a fragment on the current path.
final class NoFragmentCyclesRule: ValidationRuleVisitor {
    private var visited: Set<String> = []
    private var spreadPath: [FragmentSpread] = []
    private var pathIndexByName: [String: Int] = [:]

    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .document: return .continue
        case .fragmentDefinition(let fragment):
            detectCycles(from: fragment, context)
            return .skipChildren
        default: return .skipChildren
        }
    }

    private func detectCycles(from fragment: FragmentDefinition, _ context: ValidationContext) {
        let name = fragment.name.value
        guard visited.insert(name).inserted else { return }
        let spreads = context.fragmentSpreads(in: fragment.selectionSet)
        guard !spreads.isEmpty else { return }
        pathIndexByName[name] = spreadPath.count
        for spread in spreads {
            let spreadName = spread.name.value
            spreadPath.append(spread)
            if let cycleIndex = pathIndexByName[spreadName] {
                let cycle = spreadPath[cycleIndex...]
                let via = cycle.dropLast().map { "\"\($0.name.value)\"" }.joined(separator: ", ")
                context.report(
                    "Cannot spread fragment \"\(spreadName)\" within itself" + (via.isEmpty ? "." : " via \(via)."),
                    at: cycle.map(\.location))
            } else if let target = context.fragment(named: spreadName) {
                detectCycles(from: target, context)
            }
            spreadPath.removeLast()
        }
        pathIndexByName[name] = nil
    }
}
