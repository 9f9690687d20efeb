extension Schema {
    /// Whether a value of `maybeSubType` can be used where `superType` is expected
    /// (graphql-js `isTypeSubTypeOf`): equal types, a non-null type for its nullable
    /// counterpart, lists of subtypes, an object or interface for an abstract type it
    /// belongs to.
    public func isTypeSubType(_ maybeSubType: SchemaType, of superType: SchemaType) -> Bool {
        switch (maybeSubType, superType) {
        case (.nonNull(let sub), .nonNull(let sup)):
            return isTypeSubType(sub, of: sup)
        case (_, .nonNull):
            return false
        case (.nonNull(let sub), _):
            return isTypeSubType(sub, of: superType)
        case (.list(let sub), .list(let sup)):
            return isTypeSubType(sub, of: sup)
        case (_, .list), (.list, _):
            return false
        case (.named(let sub), .named(let sup)):
            if sub == sup { return true }
            switch sub {
            case .object, .interface: return isSubType(sub, of: sup)
            default: return false
            }
        }
    }

    /// Whether two composite types can have a runtime object type in common (graphql-js
    /// `doTypesOverlap`), as fragment spreading and field merging need to know.
    public func typesOverlap(_ typeA: NamedType, _ typeB: NamedType) -> Bool {
        if typeA == typeB { return true }
        if typeA.isAbstractType {
            if typeB.isAbstractType {
                let possibleB = Set(possibleTypes(of: typeB).map(ObjectIdentifier.init))
                return possibleTypes(of: typeA).contains { possibleB.contains(ObjectIdentifier($0)) }
            }
            return isSubType(typeB, of: typeA)
        }
        if typeB.isAbstractType { return isSubType(typeA, of: typeB) }
        return false
    }
}
