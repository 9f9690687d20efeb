import HearthDomain

// The schema's names of a member's kind, role and status (what `GraphQLEnum.name(of:)` makes of
// the stored values), spelled out: every member of every home screen reads all three, and case
// mapping a string cost more than the rest of reading the field.

extension MemberKind {
    /// The schema's name of the kind.
    var graphQLName: String {
        switch self {
        case .parent: "PARENT"
        case .child: "CHILD"
        case .shadow: "SHADOW"
        case .coParent: "CO_PARENT"
        }
    }
}

extension MemberRole {
    /// The schema's name of the role.
    var graphQLName: String {
        switch self {
        case .admin: "ADMIN"
        case .member: "MEMBER"
        }
    }
}

extension MemberStatus {
    /// The schema's name of the status.
    var graphQLName: String {
        switch self {
        case .active: "ACTIVE"
        case .invited: "INVITED"
        case .departed: "DEPARTED"
        }
    }
}
