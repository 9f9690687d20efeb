import Testing

import GraphQL


/// `validate(schema:document:rules:options:)` as a whole: all rules in one walk, the error
/// limit, suggestions.
@Suite struct ValidateTests {
    @Test func acceptsTheStandardIntrospectionQueryWithEveryRuleAndDefaultLimits() throws {
        let rules = specifiedRules + [.maxDepth(), .maxAliases(), .maxComplexity(ComplexityOptions(maximum: 1_000_000))]
        #expect(try validationErrors(rules, standardIntrospectionQuery) == [])
    }

    @Test func reportsErrorsOfAllRulesInDocumentOrder() throws {
        let errors = try validationErrors(specifiedRules, "query Q($v: Int) { dog { unknown name { x } } }")
        #expect(Set(errors) == [
            "Variable \"$v\" is never used in operation \"Q\". @ 1:9",
            "Cannot query field \"unknown\" on type \"Dog\". @ 1:26",
            "Field \"name\" must not have a selection since type \"String\" has no subfields. @ 1:39",
        ])
    }

    @Test func callsACustomRulesLeaveUnlessTheRuleSaysItHasNone() throws {
        let reported = ValidationRule(name: "LeaveReporter") { _ in LeaveReporter() }
        #expect(try validationErrors([reported], "{ dog { name } }") == ["left the document"])
        let silent = ValidationRule(name: "LeaveReporter", visitsLeave: false) { _ in LeaveReporter() }
        #expect(try validationErrors([silent], "{ dog { name } }") == [])
    }

    @Test func handsARuleOnlyTheNodeKindsItVisitsAndHonoursItsSkips() throws {
        let fields = ValidationRule(name: "FieldLogger", nodeKinds: [.field]) { _ in FieldLogger(prefix: "", skipping: "mother") }
        #expect(try validationErrors([fields], "{ dog { name mother { name } barks } }") == [
            "enter dog", "enter name", "leave name", "enter mother", "enter barks", "leave barks", "leave dog",
        ])
    }

    @Test func callsRulesInTheirOrderWhetherOrNotTheyNameTheirNodeKinds() throws {
        let named = ValidationRule(name: "Named", visitsLeave: false, nodeKinds: [.field]) { _ in FieldLogger(prefix: "named ") }
        let unnamed = ValidationRule(name: "Unnamed", visitsLeave: false) { _ in FieldLogger(prefix: "every ") }
        #expect(try validationErrors([named, unnamed], "{ dog { name } }") == [
            "named enter dog", "every enter dog", "named enter name", "every enter name",
        ])
    }

    @Test func stopsAtTheErrorLimitWithAFinalError() throws {
        let errors = try validationErrors(
            [.fieldsOnCorrectType], "{ dog { a b c } }", options: ValidationOptions(maxErrors: 2))
        #expect(errors == [
            "Cannot query field \"a\" on type \"Dog\". @ 1:9",
            "Cannot query field \"b\" on type \"Dog\". @ 1:11",
            "Too many validation errors, error limit reached. Validation aborted.",
        ])
    }

    @Test func reportsExactlyTheLimitWithoutTheFinalError() throws {
        let errors = try validationErrors([.fieldsOnCorrectType], "{ dog { a b } }", options: ValidationOptions(maxErrors: 2))
        #expect(errors.count == 2)
    }

    @Test func omitsSuggestionsWhenTurnedOff() throws {
        let document = "{ dog { nme doesKnowCommand(dogComand: SIT) } cat { furColor } complicatedArgs { enumArgField(enumArg: brown) } }"
        let withSuggestions = try validationErrors(specifiedRules, document)
        #expect(withSuggestions.contains { $0.contains("Did you mean") })
        let without = try validationErrors(specifiedRules, document, options: ValidationOptions(suggestions: false))
        #expect(without.count == withSuggestions.count)
        #expect(!without.contains { $0.contains("Did you mean") })
    }

    @Test func staysPolynomialOnManyRepeatedFragmentSpreads() throws {
        // Each fragment spreads the previous one twice: without memoised fragment pairs the
        // comparison work doubles with every level.
        var document = "{ dog { ...F30 } }\nfragment F0 on Dog { name barks }\n"
        for level in 1...30 {
            document += "fragment F\(level) on Dog { x\(level): name ...F\(level - 1) ...F\(level - 1) mother { ...F\(level - 1) } }\n"
        }
        #expect(try validationErrors(specifiedRules, document) == [])
    }
}

/// Reports an error when it leaves the document.
private final class LeaveReporter: ValidationRuleVisitor {
    func leave(_ node: ASTNode, context: ValidationContext) {
        if case .document = node { context.report("left the document", at: []) }
    }
}

/// Reports entering and leaving every field (by name, after `prefix`), and skips the
/// subtree of the field named `skipping`.
private final class FieldLogger: ValidationRuleVisitor {
    let prefix: String
    let skipping: String?

    init(prefix: String, skipping: String? = nil) {
        self.prefix = prefix
        self.skipping = skipping
    }

    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        guard case .field(let field) = node else { return .continue }
        context.report(prefix + "enter " + field.name.value, at: [])
        return field.name.value == skipping ? .skipChildren : .continue
    }

    func leave(_ node: ASTNode, context: ValidationContext) {
        guard case .field(let field) = node else { return }
        context.report(prefix + "leave " + field.name.value, at: [])
    }
}
