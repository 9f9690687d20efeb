/// Numbers the written form of fields, selection sets and argument values, so that
/// OverlappingFieldsCanBeMerged can tell in constant time that two fields are written alike.
///
/// Two fields get the same number when they have the same response key, field name, arguments
/// (in any order; values compared as printed, input object fields in any order) and
/// sub-selections written alike, directives aside: exactly what the rule's field comparison
/// reads. Such fields compare the same way against any other field, so the rule compares one of
/// them and lets it stand for the rest; and two argument lists are the same when their numbers
/// are (no pairwise search of long argument lists).
///
/// Every node is numbered once (by identity for the class nodes, memoised), and a number is
/// assigned by hashing the numbers of the node's children, so numbering a document takes time
/// and memory linear in its size.
final class SelectionShapes {
    /// The number of a field's written form, and of its arguments alone.
    struct FieldShape {
        /// Same for fields written alike.
        let id: Int
        /// Same for argument lists that are the same.
        let arguments: Int
    }

    private struct Member: Hashable {
        let name: String
        let shape: Int
    }

    private enum Shape: Hashable {
        case field(responseKey: String, name: String, arguments: Int, selectionSet: Int?)
        case arguments([Member])
        case selectionSet([Int])
        case inlineFragment(typeCondition: String?, selectionSet: Int)
        case fragmentSpread(String)
        /// A variable, scalar, enum or null value as printed, which tells every kind apart (as
        /// graphql-js compares argument values by their printed form).
        case leaf(String)
        case list([Int])
        case object([Member])
    }

    private var numbers: [Shape: Int] = [:]
    private var fields: [ObjectIdentifier: FieldShape] = [:]
    private var selectionSets: [ObjectIdentifier: Int] = [:]

    /// The numbers of `field`'s written form and of its arguments.
    func field(_ field: Field) -> FieldShape {
        let key = ObjectIdentifier(field)
        if let known = fields[key] { return known }
        let arguments = number(.arguments(members(field.arguments.map { ($0.name.value, $0.value) })))
        let id = number(.field(
            responseKey: field.responseKey, name: field.name.value, arguments: arguments,
            selectionSet: field.selectionSet.map(selectionSet)))
        let shape = FieldShape(id: id, arguments: arguments)
        fields[key] = shape
        return shape
    }

    /// The number of a selection set's written form.
    func selectionSet(_ selectionSet: SelectionSet) -> Int {
        let key = ObjectIdentifier(selectionSet)
        if let known = selectionSets[key] { return known }
        let id = number(.selectionSet(selectionSet.selections.map { selection in
            switch selection {
            case .field(let node): field(node).id
            case .fragmentSpread(let spread): number(.fragmentSpread(spread.name.value))
            case .inlineFragment(let fragment):
                number(.inlineFragment(typeCondition: fragment.typeCondition?.value, selectionSet: self.selectionSet(fragment.selectionSet)))
            }
        }))
        selectionSets[key] = id
        return id
    }

    private func value(_ value: Value) -> Int {
        switch value.kind {
        case .list(let items): number(.list(items.map(self.value)))
        case .object(let fields): number(.object(members(fields.map { ($0.name.value, $0.value) })))
        default: number(.leaf(Printer.print(value)))
        }
    }

    /// Named values in name order (stable, so repeated names keep their written order).
    private func members(_ named: [(String, Value)]) -> [Member] {
        named.map { Member(name: $0.0, shape: value($0.1)) }.enumerated()
            .sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }
            .map(\.element)
    }

    private func number(_ shape: Shape) -> Int {
        if let known = numbers[shape] { return known }
        let id = numbers.count
        numbers[shape] = id
        return id
    }
}
