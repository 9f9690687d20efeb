import HearthDomain
import Testing

/// FR-25: who a permission rule admits; children only by name or kind.
struct PermissionRuleTests {
    @Test func aRoleAdmitsAdultsOfThatRoleButNeverChildren() {
        let rule = PermissionRule(roles: [.member])
        #expect(rule.admits(memberID: "mem_a", role: .member, kind: .parent))
        #expect(rule.admits(memberID: "mem_a", role: .member, kind: .coParent))
        #expect(!rule.admits(memberID: "mem_a", role: .admin, kind: .parent))
        #expect(!rule.admits(memberID: "mem_k", role: .member, kind: .child))
        #expect(!rule.admits(memberID: "mem_s", role: .member, kind: .shadow))
    }

    @Test func aKindOrANameAdmitsChildren() {
        #expect(PermissionRule(kinds: [.child]).admits(memberID: "mem_k", role: .member, kind: .child))
        #expect(!PermissionRule(kinds: [.child]).admits(memberID: "mem_s", role: .member, kind: .shadow))
        #expect(PermissionRule(memberIDs: ["mem_k"]).admits(memberID: "mem_k", role: .member, kind: .child))
        #expect(!PermissionRule(memberIDs: ["mem_k"]).admits(memberID: "mem_x", role: .member, kind: .child))
    }

    @Test func anEmptyRuleAdmitsNobody() {
        #expect(PermissionRule.nobody.isEmpty)
        for kind in MemberKind.allCases {
            #expect(!PermissionRule.nobody.admits(memberID: "mem_a", role: .admin, kind: kind))
        }
    }

    @Test func rulesGrantingTheSameCompareEqualWhateverTheOrderAndRepeats() {
        let one = PermissionRule(roles: [.member, .admin, .member], kinds: [.shadow, .child], memberIDs: ["mem_b", "mem_a", "mem_b"])
        let two = PermissionRule(roles: [.admin, .member], kinds: [.child, .shadow], memberIDs: ["mem_a", "mem_b"])
        #expect(one == two)
        #expect(one.memberIDs == ["mem_a", "mem_b"] && one.roles == [.admin, .member] && one.kinds == [.child, .shadow])
    }
}
