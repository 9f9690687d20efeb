/// Fields of object types, by type name, that a field's selection may reach: for an
/// application that keeps a field's completed text (``CapturedValue``) only while everything
/// the text is made of comes from data it knows the version of, and lists those fields here.
///
/// ```swift
/// let plain = FieldAllowlist(["MemberConnection": ["edges", "totalCount"], "MemberEdge": ["node"], "Member": ["id", "displayName"]])
/// if plain.covers(info) { … keep the text … }
/// ```
public struct FieldAllowlist: Sendable {
    /// Field names by type name; `__typename` is allowed everywhere.
    public let fields: [String: Set<String>]

    /// The allowlist of `fields`.
    public init(_ fields: [String: Set<String>]) {
        self.fields = fields
    }

    /// Whether every field `info`'s selection reaches, at every depth, through fragments and
    /// inline fragments, is one of ``fields``. `@skip` and `@include` are not evaluated: a field
    /// is counted whether it is included or not, and a fragment applies only on its own type (not
    /// on an interface or union it belongs to), so the answer errs towards `false`.
    public func covers(_ info: ResolveInfo) -> Bool {
        let type = info.returnType.namedType
        return info.fieldNodes.allSatisfy { field in
            field.selectionSet.map { covers($0, of: type, info, depth: 0) } ?? true
        }
    }

    private func covers(_ selectionSet: SelectionSet, of type: NamedType, _ info: ResolveInfo, depth: Int) -> Bool {
        // The document passed validation (no fragment cycles); the depth bound only keeps a
        // schema change from turning this into a deep walk.
        guard depth < 16, let allowed = fields[type.name] else { return false }
        return selectionSet.selections.allSatisfy { selection in
            switch selection {
            case .field(let field):
                let name = field.name.value
                if name == "__typename" { return true }
                guard allowed.contains(name), let definition = info.schema.field(named: name, on: type) else { return false }
                return field.selectionSet.map { covers($0, of: definition.type.namedType, info, depth: depth + 1) } ?? true
            case .inlineFragment(let fragment):
                return fragment.typeCondition.map { $0.value == type.name } ?? true
                    && covers(fragment.selectionSet, of: type, info, depth: depth + 1)
            case .fragmentSpread(let spread):
                guard let fragment = info.fragments[spread.name.value] else { return false }
                return fragment.typeCondition.value == type.name && covers(fragment.selectionSet, of: type, info, depth: depth + 1)
            }
        }
    }
}
