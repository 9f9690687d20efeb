extension ValidationRule {
    /// Field Selection Merging (spec 5.3.2): fields with the same response name can be merged:
    /// unless their parents are distinct object types, they select the same field with the
    /// same arguments; in every case their types are compatible and their sub-selections merge.
    ///
    /// Follows graphql-js's algorithm with its memoization: the fields of a selection set are
    /// collected once per parent type, and each pair of fragments, and of field set and
    /// fragment, is compared once, so repeated fragments cost no exponential work.
    public static let overlappingFieldsCanBeMerged = ValidationRule(
        name: "OverlappingFieldsCanBeMerged", visitsLeave: false, nodeKinds: [.selectionSet]
    ) { _ in
        OverlappingFieldsCanBeMergedRule()
    }
}

final class OverlappingFieldsCanBeMergedRule: ValidationRuleVisitor {
    /// A field as collected from a selection set, with the type it was selected on.
    private struct FieldEntry {
        let parentType: NamedType?
        let node: Field
        let definition: SchemaField?
    }

    /// The fields of a selection set by response name, and the fragments it spreads.
    private final class CollectedFields {
        var fields = OrderedMap<String, [FieldEntry]>()
        var spreads: [String] = []
    }

    /// Why two fields cannot be merged.
    private indirect enum Reason {
        case message(String)
        case subfields([(responseName: String, reason: Reason)])

        var text: String {
            switch self {
            case .message(let message): message
            case .subfields(let conflicts):
                conflicts.map { "subfields \"\($0.responseName)\" conflict because \($0.reason.text)" }
                    .joined(separator: " and ")
            }
        }
    }

    private struct Conflict {
        let responseName: String
        let reason: Reason
        let fields1: [Field]
        let fields2: [Field]
    }

    private struct CollectKey: Hashable {
        let parentType: ObjectIdentifier?
        let selectionSet: ObjectIdentifier
    }

    /// Pairs compared so far with whether they were compared as mutually exclusive; a pair
    /// compared as not exclusive covers both kinds of later comparison.
    private struct PairSet<Key: Hashable> {
        private var storage: [Key: [Key: Bool]] = [:]

        func contains(_ a: Key, _ b: Key, mutuallyExclusive: Bool) -> Bool {
            guard let recorded = storage[a]?[b] else { return false }
            return mutuallyExclusive || !recorded
        }

        mutating func insert(_ a: Key, _ b: Key, mutuallyExclusive: Bool) {
            storage[a, default: [:]][b] = mutuallyExclusive
        }
    }

    private var collected: [CollectKey: CollectedFields] = [:]
    private var comparedFragmentPairs = PairSet<String>()
    private var comparedFieldsAndFragmentPairs: [ObjectIdentifier: [String: Bool]] = [:]
    private var context: ValidationContext?

    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        guard case .selectionSet(let selectionSet) = node else {
            if case .value = node { return .skipChildren }
            return .continue
        }
        // An inline fragment's fields are compared as part of the enclosing selection set.
        if case .inlineFragment? = context.ancestors.last { return .continue }
        let selections = selectionSet.selections
        if selections.count <= 1 {
            guard case .inlineFragment? = selections.first else { return .continue }
        }
        self.context = context
        defer { self.context = nil }
        for conflict in findConflictsWithinSelectionSet(context.parentType, selectionSet) {
            context.report(
                "Fields \"\(conflict.responseName)\" conflict because \(conflict.reason.text)."
                    + " Use different aliases on the fields to fetch both if this was intentional.",
                at: (conflict.fields1 + conflict.fields2).map(\.location))
        }
        return .continue
    }

    private func findConflictsWithinSelectionSet(_ parentType: NamedType?, _ selectionSet: SelectionSet) -> [Conflict] {
        var conflicts: [Conflict] = []
        let fields = collectFields(parentType, selectionSet)
        collectConflictsWithin(&conflicts, fields)
        let spreads = fields.spreads
        if !spreads.isEmpty, fields.fields.count > 0 || spreads.count > 1 {
            for (index, spread) in spreads.enumerated() {
                collectConflictsBetweenFieldsAndFragment(&conflicts, false, fields, spread)
                for other in spreads[(index + 1)...] {
                    collectConflictsBetweenFragments(&conflicts, false, spread, other)
                }
            }
        }
        return conflicts
    }

    private func collectConflictsBetweenFieldsAndFragment(
        _ conflicts: inout [Conflict], _ mutuallyExclusive: Bool, _ fields: CollectedFields, _ fragmentName: String
    ) {
        guard fields.fields.count > 0 else { return }
        let key = ObjectIdentifier(fields)
        if let recorded = comparedFieldsAndFragmentPairs[key]?[fragmentName], mutuallyExclusive || !recorded { return }
        comparedFieldsAndFragmentPairs[key, default: [:]][fragmentName] = mutuallyExclusive
        guard let fragmentFields = fragmentFields(fragmentName), fragmentFields !== fields else { return }
        collectConflictsBetween(&conflicts, mutuallyExclusive, fields, fragmentFields)
        for referenced in fragmentFields.spreads {
            collectConflictsBetweenFieldsAndFragment(&conflicts, mutuallyExclusive, fields, referenced)
        }
    }

    private func collectConflictsBetweenFragments(
        _ conflicts: inout [Conflict], _ mutuallyExclusive: Bool, _ name1: String, _ name2: String
    ) {
        guard name1 != name2 else { return }
        if comparedFragmentPairs.contains(name1, name2, mutuallyExclusive: mutuallyExclusive)
            || comparedFragmentPairs.contains(name2, name1, mutuallyExclusive: mutuallyExclusive) {
            return
        }
        comparedFragmentPairs.insert(name1, name2, mutuallyExclusive: mutuallyExclusive)
        guard let fields1 = fragmentFields(name1), let fields2 = fragmentFields(name2) else { return }
        collectConflictsBetween(&conflicts, mutuallyExclusive, fields1, fields2)
        for referenced in fields2.spreads {
            collectConflictsBetweenFragments(&conflicts, mutuallyExclusive, name1, referenced)
        }
        for referenced in fields1.spreads {
            collectConflictsBetweenFragments(&conflicts, mutuallyExclusive, referenced, name2)
        }
    }

    private func findConflictsBetweenSubSelectionSets(
        _ mutuallyExclusive: Bool, _ type1: NamedType?, _ selectionSet1: SelectionSet,
        _ type2: NamedType?, _ selectionSet2: SelectionSet
    ) -> [Conflict] {
        var conflicts: [Conflict] = []
        let fields1 = collectFields(type1, selectionSet1)
        let fields2 = collectFields(type2, selectionSet2)
        collectConflictsBetween(&conflicts, mutuallyExclusive, fields1, fields2)
        for spread in fields2.spreads {
            collectConflictsBetweenFieldsAndFragment(&conflicts, mutuallyExclusive, fields1, spread)
        }
        for spread in fields1.spreads {
            collectConflictsBetweenFieldsAndFragment(&conflicts, mutuallyExclusive, fields2, spread)
        }
        for spread1 in fields1.spreads {
            for spread2 in fields2.spreads {
                collectConflictsBetweenFragments(&conflicts, mutuallyExclusive, spread1, spread2)
            }
        }
        return conflicts
    }

    private func collectConflictsWithin(_ conflicts: inout [Conflict], _ collected: CollectedFields) {
        for (responseName, entries) in zip(collected.fields.keys, collected.fields.values) where entries.count > 1 {
            for i in entries.indices {
                for j in (i + 1)..<entries.count {
                    if let conflict = findConflict(false, responseName, entries[i], entries[j]) {
                        conflicts.append(conflict)
                    }
                }
            }
        }
    }

    private func collectConflictsBetween(
        _ conflicts: inout [Conflict], _ mutuallyExclusive: Bool, _ fields1: CollectedFields, _ fields2: CollectedFields
    ) {
        guard fields1.fields.count > 0, fields2.fields.count > 0 else { return }
        for (responseName, entries1) in zip(fields1.fields.keys, fields1.fields.values) {
            guard let entries2 = fields2.fields[responseName] else { continue }
            for entry1 in entries1 {
                for entry2 in entries2 {
                    if let conflict = findConflict(mutuallyExclusive, responseName, entry1, entry2) {
                        conflicts.append(conflict)
                    }
                }
            }
        }
    }

    private func findConflict(
        _ parentFieldsAreMutuallyExclusive: Bool, _ responseName: String, _ entry1: FieldEntry, _ entry2: FieldEntry
    ) -> Conflict? {
        let node1 = entry1.node, node2 = entry2.node
        var mutuallyExclusive = parentFieldsAreMutuallyExclusive
        if !mutuallyExclusive, let parent1 = entry1.parentType, let parent2 = entry2.parentType, parent1 != parent2,
           case .object = parent1, case .object = parent2 {
            mutuallyExclusive = true
        }
        if !mutuallyExclusive {
            if node1.name.value != node2.name.value {
                return Conflict(
                    responseName: responseName,
                    reason: .message("\"\(node1.name.value)\" and \"\(node2.name.value)\" are different fields"),
                    fields1: [node1], fields2: [node2])
            }
            if !sameArguments(node1.arguments, node2.arguments) {
                return Conflict(
                    responseName: responseName, reason: .message("they have differing arguments"),
                    fields1: [node1], fields2: [node2])
            }
        }
        let type1 = entry1.definition?.type, type2 = entry2.definition?.type
        if let type1, let type2, typesConflict(type1, type2) {
            return Conflict(
                responseName: responseName,
                reason: .message("they return conflicting types \"\(type1)\" and \"\(type2)\""),
                fields1: [node1], fields2: [node2])
        }
        guard let selectionSet1 = node1.selectionSet, let selectionSet2 = node2.selectionSet else { return nil }
        let subConflicts = findConflictsBetweenSubSelectionSets(
            mutuallyExclusive, type1?.namedType, selectionSet1, type2?.namedType, selectionSet2)
        guard !subConflicts.isEmpty else { return nil }
        return Conflict(
            responseName: responseName,
            reason: .subfields(subConflicts.map { ($0.responseName, $0.reason) }),
            fields1: [node1] + subConflicts.flatMap(\.fields1),
            fields2: [node2] + subConflicts.flatMap(\.fields2))
    }

    private func typesConflict(_ type1: SchemaType, _ type2: SchemaType) -> Bool {
        switch (type1, type2) {
        case (.list(let inner1), .list(let inner2)), (.nonNull(let inner1), .nonNull(let inner2)):
            return typesConflict(inner1, inner2)
        case (.list, _), (_, .list), (.nonNull, _), (_, .nonNull):
            return true
        case (.named(let named1), .named(let named2)):
            if named1.isLeafType || named2.isLeafType { return named1 != named2 }
            return false
        }
    }

    private func sameArguments(_ arguments1: [Argument], _ arguments2: [Argument]) -> Bool {
        guard arguments1.count == arguments2.count else { return false }
        return arguments1.allSatisfy { argument1 in
            guard let argument2 = arguments2.first(where: { $0.name.value == argument1.name.value }) else { return false }
            return sameValue(argument1.value, argument2.value)
        }
    }

    /// Whether two literals are the same value as written; input object fields in any order.
    private func sameValue(_ value1: Value, _ value2: Value) -> Bool {
        switch (value1.kind, value2.kind) {
        case (.variable(let a), .variable(let b)), (.int(let a), .int(let b)), (.float(let a), .float(let b)),
             (.enumValue(let a), .enumValue(let b)):
            return a == b
        case (.string(let a, let blockA), .string(let b, let blockB)): return a == b && blockA == blockB
        case (.boolean(let a), .boolean(let b)): return a == b
        case (.null, .null): return true
        case (.list(let a), .list(let b)): return a.count == b.count && zip(a, b).allSatisfy { sameValue($0, $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            let sortedA = a.sorted { $0.name.value < $1.name.value }, sortedB = b.sorted { $0.name.value < $1.name.value }
            return zip(sortedA, sortedB).allSatisfy { $0.name.value == $1.name.value && sameValue($0.value, $1.value) }
        default: return false
        }
    }

    private func fragmentFields(_ name: String) -> CollectedFields? {
        guard let context, let fragment = context.fragment(named: name) else { return nil }
        return collectFields(context.schema.type(named: fragment.typeCondition.value), fragment.selectionSet)
    }

    private func collectFields(_ parentType: NamedType?, _ selectionSet: SelectionSet) -> CollectedFields {
        let key = CollectKey(parentType: parentType?.identity, selectionSet: ObjectIdentifier(selectionSet))
        if let cached = collected[key] { return cached }
        let result = CollectedFields()
        var spreadNames: Set<String> = []
        collectFields(parentType, selectionSet, into: result, &spreadNames)
        collected[key] = result
        return result
    }

    private func collectFields(
        _ parentType: NamedType?, _ selectionSet: SelectionSet, into result: CollectedFields, _ spreadNames: inout Set<String>
    ) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                var definition: SchemaField?
                if let parentType {
                    switch parentType {
                    case .object(let object): definition = object.fields[field.name.value]
                    case .interface(let interface): definition = interface.fields[field.name.value]
                    default: break
                    }
                }
                let key = field.responseKey
                var group = result.fields[key] ?? []
                group.append(FieldEntry(parentType: parentType, node: field, definition: definition))
                result.fields[key] = group
            case .fragmentSpread(let spread):
                if spreadNames.insert(spread.name.value).inserted { result.spreads.append(spread.name.value) }
            case .inlineFragment(let fragment):
                let type = fragment.typeCondition.map { context?.schema.type(named: $0.value) } ?? parentType
                collectFields(type, fragment.selectionSet, into: result, &spreadNames)
            }
        }
    }
}
