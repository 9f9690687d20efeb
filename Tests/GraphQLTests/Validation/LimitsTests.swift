import Testing

import GraphQL

/// The optional limits: depth, aliases and complexity, each at its edge.
@Suite struct LimitsTests {
    @Test func depthCountsNestedFieldsThroughFragments() throws {
        let document = "{ dog { mother { ...M } } } fragment M on Dog { father { name } }"
        #expect(try validationErrors([.maxDepth(4)], document) == [])
        #expect(try validationErrors([.maxDepth(3)], document) == [
            "The operation has depth 4, more than the maximum of 3. @ 1:1",
        ])
    }

    @Test func depthIgnoresFragmentCycles() throws {
        let document = "query Q { dog { ...A } } fragment A on Dog { mother { ...A } }"
        #expect(try validationErrors([.maxDepth(1)], document) == [
            "Operation \"Q\" has depth 2, more than the maximum of 1. @ 1:1",
        ])
    }

    @Test func defaultDepthAdmitsTheIntrospectionQuery() throws {
        #expect(try validationErrors([.maxDepth()], standardIntrospectionQuery) == [])
        #expect(try validationErrors([.maxDepth(12)], standardIntrospectionQuery).count == 1)
    }

    @Test func aliasesCountOncePerSpread() throws {
        let document = "{ dog { ...A ...A x: name } } fragment A on Dog { a: name b: barks }"
        #expect(try validationErrors([.maxAliases(5)], document) == [])
        #expect(try validationErrors([.maxAliases(4)], document) == [
            "The operation has 5 aliases, more than the maximum of 4. @ 1:1",
        ])
    }

    @Test func selectionSetFieldsCountInlineFragmentsAndSpreadsWhereSpread() throws {
        // dog selects name, barks, nickname twice (F is spread twice) and mother: 5 fields.
        let document = "{ dog { name ... on Dog { barks ...F } ...F mother { barkVolume } } } fragment F on Dog { nickname }"
        #expect(try validationErrors([.maxSelectionSetFields(5)], document) == [])
        #expect(try validationErrors([.maxSelectionSetFields(4)], document) == [
            "The operation has a selection set of 5 fields (fragments counted where spread), more than the maximum of 4. @ 1:1",
        ])
    }

    @Test func defaultSelectionSetFieldsAdmitTheIntrospectionQuery() throws {
        // Its widest selection set is the FullType fragment's 10 fields.
        #expect(try validationErrors([.maxSelectionSetFields()], standardIntrospectionQuery) == [])
        #expect(try validationErrors([.maxSelectionSetFields(10)], standardIntrospectionQuery) == [])
        #expect(try validationErrors([.maxSelectionSetFields(9)], standardIntrospectionQuery).count == 1)
    }

    @Test func complexityMultipliesListFieldsByTheirSize() throws {
        // human: 1 + pets: 10 × (1 + name 1) = 21 with the default list size of 10.
        let document = "{ human { pets { name } } }"
        #expect(try validationErrors([.maxComplexity(ComplexityOptions(maximum: 21))], document) == [])
        #expect(try validationErrors([.maxComplexity(ComplexityOptions(maximum: 20))], document) == [
            "The operation has complexity 21, more than the maximum of 20. @ 1:1",
        ])
    }

    @Test func complexityReadsFirstFromLiteralsVariablesAndDefaults() throws {
        let schema = try buildSchema(sdl: "type Query { items(first: Int): [Item] } type Item { a: Int b: Int }")
        let options = ComplexityOptions(maximum: 1_000)
        let literal = try validationErrors([.maxComplexity(options)], "{ items(first: 500) { a b } }", schema: schema)
        #expect(literal == ["The operation has complexity 1500, more than the maximum of 1000. @ 1:1"])
        let variable = try validationErrors(
            [.maxComplexity(options, variables: ["n": .int(2)])], "query Q($n: Int = 900) { items(first: $n) { a b } }",
            schema: schema)
        #expect(variable == [])
        let fallback = try validationErrors(
            [.maxComplexity(options)], "query Q($n: Int = 400) { items(first: $n) { a b } }", schema: schema)
        #expect(fallback == ["Operation \"Q\" has complexity 1200, more than the maximum of 1000. @ 1:1"])
    }

    @Test func aCostWithoutVariableListSizesIsFixedAndOneWithThemIsNot() throws {
        let schema = try buildSchema(sdl: "type Query { items(first: Int, where: Int): [Item] } type Item { a: Int b: Int }")
        let executor = try Executor(resolvers: Resolvers(schema: schema))
        let options = ComplexityOptions()
        func fixedCost(_ text: String) throws -> Int? {
            options.fixedCost(of: try executor.prepare(try Parser.parse(text)), schema: schema)
        }
        #expect(try fixedCost("{ items(first: 7) { a b } }") == 21)
        // A variable elsewhere than a list size leaves the cost fixed.
        #expect(try fixedCost("query($w: Int) { items(first: 3, where: $w) { a } }") == 6)
        #expect(try fixedCost("query($n: Int) { items(first: $n) { a b } }") == nil)
        #expect(try fixedCost("query($n: Int = 4) { ...F } fragment F on Query { items(first: $n) { a } }") == nil)
    }

    @Test func complexityUsesFieldWeights() throws {
        let options = ComplexityOptions(maximum: 100, fieldWeights: ["QueryRoot.dog": 100])
        #expect(try validationErrors([.maxComplexity(options)], "{ dog { name } }") == [
            "The operation has complexity 101, more than the maximum of 100. @ 1:1",
        ])
    }

    @Test func complexitySaturatesInsteadOfOverflowing() throws {
        let schema = try buildSchema(sdl: "type Query { items(first: Int): [Query] a: Int }")
        var document = "a"
        for _ in 0..<8 { document = "items(first: 2000000000) { \(document) }" }
        let errors = try validationErrors([.maxComplexity(ComplexityOptions())], "{ \(document) }", schema: schema)
        #expect(errors.count == 1)
    }
}
