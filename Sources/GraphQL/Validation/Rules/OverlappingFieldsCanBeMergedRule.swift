extension ValidationRule {
    /// Field Selection Merging (spec 5.3.2): fields with the same response name can be merged:
    /// unless their parents are distinct object types, they select the same field with the
    /// same arguments; in every case their types are compatible and their sub-selections merge.
    ///
    /// Follows graphql-js's algorithm with its memoization: the fields of a selection set are
    /// collected once per parent type, and each pair of fragments, and of field set and
    /// fragment, is compared once, so repeated fragments cost no exponential work. Two more
    /// steps keep repeated fields from costing quadratic work, which graphql-js spends (296 s
    /// for 4,900 `__typename`s):
    /// - fields of one response name written alike on the same parent type (see
    ///   `SelectionShapes`) form a class, and one comparison stands for every pair of two
    ///   classes; only when it finds a conflict are the pairs compared one by one, so every
    ///   conflict graphql-js reports is still reported, with its own fields;
    /// - a comparison of two such classes that found no conflict is remembered, so the same
    ///   two sub-selections met again elsewhere are not compared again.
    ///
    /// What remains quadratic (fields of one name written differently, many fragments spread
    /// together) is bounded by `ValidationOptions.maxFieldComparisons`.
    public static let overlappingFieldsCanBeMerged = ValidationRule(
        name: "OverlappingFieldsCanBeMerged", visitsLeave: false, nodeKinds: [.selectionSet]
    ) { context in
        OverlappingFieldsCanBeMergedRule(maxComparisons: context.options.maxFieldComparisons)
    }
}

final class OverlappingFieldsCanBeMergedRule: ValidationRuleVisitor {
    /// A field as collected from a selection set, with the type it was selected on. A class, so
    /// that handing one around costs one reference count.
    private final class FieldEntry {
        let parentType: NamedType?
        let node: Field
        let definition: SchemaField?
        /// Its position in its collection: a pair of one collection is compared (and reported)
        /// in written order, as graphql-js does.
        let position: Int
        /// What makes two collected fields interchangeable in every comparison (the parent type
        /// they were selected on and their written form, response key included), numbered, and
        /// the number of its arguments; see `shape(of:)`, which computes them when first needed:
        /// most fields never meet another of their response name.
        var shape: (signature: Int, arguments: Int)?

        init(parentType: NamedType?, node: Field, definition: SchemaField?, position: Int) {
            self.parentType = parentType
            self.node = node
            self.definition = definition
            self.position = position
        }
    }

    private struct Signature: Hashable {
        let parentType: ObjectIdentifier?
        let shape: Int
    }

    /// The fields of one response name with the same signature, compared as one.
    private struct FieldClass {
        var entries: [FieldEntry]
        var representative: FieldEntry { entries[0] }
    }

    /// The fields of a selection set by response name, in classes, and the fragments it spreads
    /// (by number, see `fragmentNumber`).
    private final class CollectedFields {
        /// Numbers the collections of one validation, for `comparedFieldsAndFragmentPairs`.
        let id: Int
        var responseNames: [String] = []
        /// Parallel to `responseNames`.
        var classes: [[FieldClass]] = []
        var groupByName: [String: Int] = [:]
        var classBySignature: [Int: Int] = [:]
        var spreads: [Int] = []
        var fieldCount = 0

        init(id: Int) {
            self.id = id
        }

        var isEmpty: Bool { responseNames.isEmpty }
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

    /// Ordered pairs of numbers (below 2³¹, as every count in a document is) compared so far,
    /// with whether they were compared as mutually exclusive; a pair compared as not exclusive
    /// covers both kinds of later comparison. One hashed word per pair.
    private struct PairSet {
        private var storage: [Int: Bool] = [:]

        func contains(_ a: Int, _ b: Int, mutuallyExclusive: Bool) -> Bool {
            guard let recorded = storage[a << 32 | b] else { return false }
            return mutuallyExclusive || !recorded
        }

        mutating func insert(_ a: Int, _ b: Int, mutuallyExclusive: Bool) {
            storage[a << 32 | b] = mutuallyExclusive
        }
    }

    private let maxComparisons: Int
    private var comparisons = 0
    private var isExhausted = false
    private let shapes = SelectionShapes()
    private var signatures: [Signature: Int] = [:]
    private var collected: [CollectKey: CollectedFields] = [:]
    private var fragmentNumbers: [String: Int] = [:]
    /// By fragment number: the name, and the fields once collected (nil: not yet, or unknown).
    private var fragmentNames: [String] = []
    private var fragmentFieldsCache: [CollectedFields?] = []
    private var comparedFragmentPairs = PairSet()
    private var comparedFieldsAndFragmentPairs = PairSet()
    /// Field pairs, by signature, whose comparison found no conflict.
    private var mergeablePairs = PairSet()
    private var context: ValidationContext?

    init(maxComparisons: Int) {
        self.maxComparisons = maxComparisons
    }

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
        // Fields of distinct response names, no fragment: nothing to compare (the usual case).
        if Self.selectsDistinctFieldsOnly(selections) { return .continue }
        self.context = context
        defer { self.context = nil }
        for conflict in findConflictsWithinSelectionSet(context.parentType, selectionSet) {
            context.report(
                "Fields \"\(conflict.responseName)\" conflict because \(conflict.reason.text)."
                    + " Use different aliases on the fields to fetch both if this was intentional.",
                at: (conflict.fields1 + conflict.fields2).map(\.location))
        }
        guard !isExhausted else {
            context.report(
                "Validation aborted: checking that fields of the same name can be merged needs more than"
                    + " \(maxComparisons) comparisons. Select fewer fields of the same name, or spread fewer fragments together.",
                at: [selectionSet.location])
            return .stop
        }
        return .continue
    }

    private static func selectsDistinctFieldsOnly(_ selections: [Selection]) -> Bool {
        var names: Set<String> = []
        names.reserveCapacity(selections.count)
        for selection in selections {
            guard case .field(let field) = selection, names.insert(field.responseKey).inserted else { return false }
        }
        return true
    }

    /// Counts one comparison; `false` once the budget is spent, after which every step returns.
    private func spend() -> Bool {
        comparisons += 1
        if comparisons > maxComparisons { isExhausted = true }
        return !isExhausted
    }

    private func findConflictsWithinSelectionSet(_ parentType: NamedType?, _ selectionSet: SelectionSet) -> [Conflict] {
        var conflicts: [Conflict] = []
        let fields = collectFields(parentType, selectionSet)
        collectConflictsWithin(&conflicts, fields)
        let spreads = fields.spreads
        if !spreads.isEmpty, !fields.isEmpty || spreads.count > 1 {
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
        _ conflicts: inout [Conflict], _ mutuallyExclusive: Bool, _ fields: CollectedFields, _ fragment: Int
    ) {
        guard !fields.isEmpty, spend() else { return }
        if comparedFieldsAndFragmentPairs.contains(fields.id, fragment, mutuallyExclusive: mutuallyExclusive) { return }
        comparedFieldsAndFragmentPairs.insert(fields.id, fragment, mutuallyExclusive: mutuallyExclusive)
        guard let fragmentFields = fragmentFields(fragment), fragmentFields !== fields else { return }
        collectConflictsBetween(&conflicts, mutuallyExclusive, fields, fragmentFields)
        for referenced in fragmentFields.spreads {
            collectConflictsBetweenFieldsAndFragment(&conflicts, mutuallyExclusive, fields, referenced)
        }
    }

    private func collectConflictsBetweenFragments(
        _ conflicts: inout [Conflict], _ mutuallyExclusive: Bool, _ name1: Int, _ name2: Int
    ) {
        guard name1 != name2, spend() else { return }
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

    /// Every pair of fields of one response name within one collection. Fields of one class
    /// are compared once with each other; each class once with every later class.
    private func collectConflictsWithin(_ conflicts: inout [Conflict], _ collected: CollectedFields) {
        for (responseName, classes) in zip(collected.responseNames, collected.classes) {
            guard classes.count > 1 || classes[0].entries.count > 1 else { continue }
            for (index, fieldClass) in classes.enumerated() {
                if fieldClass.entries.count > 1 {
                    collectConflicts(&conflicts, false, responseName, fieldClass, fieldClass, .sameClass)
                }
                for other in classes[(index + 1)...] {
                    collectConflicts(&conflicts, false, responseName, fieldClass, other, .sameCollection)
                }
                if isExhausted { return }
            }
        }
    }

    /// Every pair of fields of one response name, one from each collection.
    private func collectConflictsBetween(
        _ conflicts: inout [Conflict], _ mutuallyExclusive: Bool, _ fields1: CollectedFields, _ fields2: CollectedFields
    ) {
        guard !fields1.isEmpty, !fields2.isEmpty else { return }
        for (group1, responseName) in fields1.responseNames.enumerated() {
            guard spend() else { return }
            guard let group2 = fields2.groupByName[responseName] else { continue }
            for class1 in fields1.classes[group1] {
                for class2 in fields2.classes[group2] {
                    collectConflicts(&conflicts, mutuallyExclusive, responseName, class1, class2, .between)
                }
            }
        }
    }

    /// Which pairs of fields two classes stand for.
    private enum ClassPair {
        /// Every two fields of one class.
        case sameClass
        /// A field of each of two classes of one collection, compared in written order.
        case sameCollection
        /// A field of the first class (and collection) and one of the second.
        case between
    }

    /// The conflicts between the fields of two classes. One pair is compared first; since
    /// every field of a class compares as any other of it does, the other pairs are compared
    /// only when that finds a conflict, to report each pair with its own fields.
    private func collectConflicts(
        _ conflicts: inout [Conflict], _ mutuallyExclusive: Bool, _ responseName: String,
        _ class1: FieldClass, _ class2: FieldClass, _ pair: ClassPair
    ) {
        func conflict(_ entry1: FieldEntry, _ entry2: FieldEntry) -> Conflict? {
            if pair == .sameCollection, entry2.position < entry1.position {
                return findConflict(mutuallyExclusive, responseName, entry2, entry1)
            }
            return findConflict(mutuallyExclusive, responseName, entry1, entry2)
        }
        let first2 = pair == .sameClass ? 1 : 0
        guard let first = conflict(class1.representative, class2.entries[first2]) else { return }
        conflicts.append(first)
        for (index1, entry1) in class1.entries.enumerated() {
            for (index2, entry2) in class2.entries.enumerated().dropFirst(pair == .sameClass ? index1 + 1 : 0) {
                if index1 == 0, index2 == first2 { continue }
                if let found = conflict(entry1, entry2) { conflicts.append(found) }
                if isExhausted { return }
            }
        }
    }

    private func findConflict(
        _ parentFieldsAreMutuallyExclusive: Bool, _ responseName: String, _ entry1: FieldEntry, _ entry2: FieldEntry
    ) -> Conflict? {
        guard spend() else { return nil }
        let signature1 = shape(of: entry1).signature, signature2 = shape(of: entry2).signature
        if mergeablePairs.contains(signature1, signature2, mutuallyExclusive: parentFieldsAreMutuallyExclusive)
            || mergeablePairs.contains(signature2, signature1, mutuallyExclusive: parentFieldsAreMutuallyExclusive) {
            return nil
        }
        let conflict = compare(parentFieldsAreMutuallyExclusive, responseName, entry1, entry2)
        if conflict == nil, !isExhausted {
            mergeablePairs.insert(signature1, signature2, mutuallyExclusive: parentFieldsAreMutuallyExclusive)
        }
        return conflict
    }

    private func compare(
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
            if shape(of: entry1).arguments != shape(of: entry2).arguments {
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

    /// The fields of fragment number `fragment`; nil for an unknown fragment.
    private func fragmentFields(_ fragment: Int) -> CollectedFields? {
        if let known = fragmentFieldsCache[fragment] { return known }
        guard let context, let definition = context.fragment(named: fragmentNames[fragment]) else { return nil }
        let fields = collectFields(context.schema.type(named: definition.typeCondition.value), definition.selectionSet)
        fragmentFieldsCache[fragment] = fields
        return fields
    }

    /// Numbers fragment names, so that pairs of them are one word.
    private func fragmentNumber(_ name: String) -> Int {
        if let known = fragmentNumbers[name] { return known }
        let number = fragmentNames.count
        fragmentNumbers[name] = number
        fragmentNames.append(name)
        fragmentFieldsCache.append(nil)
        return number
    }

    private func shape(of entry: FieldEntry) -> (signature: Int, arguments: Int) {
        if let known = entry.shape { return known }
        let fieldShape = shapes.field(entry.node)
        let key = Signature(parentType: entry.parentType?.identity, shape: fieldShape.id)
        let signature: Int
        if let known = signatures[key] {
            signature = known
        } else {
            signature = signatures.count
            signatures[key] = signature
        }
        entry.shape = (signature, fieldShape.arguments)
        return (signature, fieldShape.arguments)
    }

    /// Adds `entry` to its response name's group in `collected`, in its class. Fields are
    /// classified only once their name repeats.
    private func add(_ entry: FieldEntry, to collected: CollectedFields) {
        let responseName = entry.node.responseKey
        collected.fieldCount += 1
        guard let group = collected.groupByName[responseName] else {
            collected.groupByName[responseName] = collected.responseNames.count
            collected.responseNames.append(responseName)
            collected.classes.append([FieldClass(entries: [entry])])
            return
        }
        if collected.classes[group].count == 1, collected.classes[group][0].entries.count == 1 {
            collected.classBySignature[shape(of: collected.classes[group][0].representative).signature] = 0
        }
        let signature = shape(of: entry).signature
        if let known = collected.classBySignature[signature] {
            collected.classes[group][known].entries.append(entry)
        } else {
            collected.classBySignature[signature] = collected.classes[group].count
            collected.classes[group].append(FieldClass(entries: [entry]))
        }
    }

    private func collectFields(_ parentType: NamedType?, _ selectionSet: SelectionSet) -> CollectedFields {
        let key = CollectKey(parentType: parentType?.identity, selectionSet: ObjectIdentifier(selectionSet))
        if let cached = collected[key] { return cached }
        let result = CollectedFields(id: collected.count)
        var spreadNames: Set<Int> = []
        collectFields(parentType, selectionSet, into: result, &spreadNames)
        collected[key] = result
        return result
    }

    private func collectFields(
        _ parentType: NamedType?, _ selectionSet: SelectionSet, into result: CollectedFields, _ spreadNames: inout Set<Int>
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
                add(FieldEntry(parentType: parentType, node: field, definition: definition, position: result.fieldCount), to: result)
            case .fragmentSpread(let spread):
                let fragment = fragmentNumber(spread.name.value)
                if spreadNames.insert(fragment).inserted { result.spreads.append(fragment) }
            case .inlineFragment(let fragment):
                let type = fragment.typeCondition.map { context?.schema.type(named: $0.value) } ?? parentType
                collectFields(type, fragment.selectionSet, into: result, &spreadNames)
            }
        }
    }
}
