import Testing

import GraphQL

/// `OverlappingFieldsCanBeMerged`: valid and invalid documents with the expected messages and locations.
@Suite struct OverlappingFieldsCanBeMergedTests {
    @Test func acceptsIdenticalFieldsAndDisjointObjectTypes() throws {
        try expectValid(.overlappingFieldsCanBeMerged, "{ dog { name name doesKnowCommand(dogCommand: SIT) doesKnowCommand(dogCommand: SIT) } catOrDog { ... on Cat { x: meows } ... on Dog { x: barks } } }")
    }

    @Test func reportsDifferentFieldsUnderOneName() throws {
        try expectErrors(.overlappingFieldsCanBeMerged, "{ dog { x: name x: barks } }", [
            "Fields \"x\" conflict because \"name\" and \"barks\" are different fields. Use different aliases on the fields to fetch both if this was intentional. @ 1:9 1:17",
        ])
    }

    @Test func reportsDifferingArguments() throws {
        try expectErrors(.overlappingFieldsCanBeMerged, "{ dog { doesKnowCommand(dogCommand: SIT) doesKnowCommand(dogCommand: HEEL) } }", [
            "Fields \"doesKnowCommand\" conflict because they have differing arguments. Use different aliases on the fields to fetch both if this was intentional. @ 1:9 1:42",
        ])
    }

    @Test func reportsConflictingReturnTypesOnDisjointTypes() throws {
        try expectErrors(.overlappingFieldsCanBeMerged, "{ catOrDog { ... on Cat { x: meows } ... on Dog { x: barkVolume } } }", [
            "Fields \"x\" conflict because they return conflicting types \"Boolean\" and \"Int\". Use different aliases on the fields to fetch both if this was intentional. @ 1:27 1:51",
        ])
    }

    @Test func reportsConflictsFoundThroughFragments() throws {
        try expectErrors(.overlappingFieldsCanBeMerged, "{ dog { ...A ...B } } fragment A on Dog { x: name } fragment B on Dog { x: barks }", [
            "Fields \"x\" conflict because \"name\" and \"barks\" are different fields. Use different aliases on the fields to fetch both if this was intentional. @ 1:43 1:73",
        ])
    }

    @Test func reportsDeepSubfieldConflicts() throws {
        try expectErrors(.overlappingFieldsCanBeMerged, "{ dog { mother { x: name } mother { x: barks } } }", [
            "Fields \"mother\" conflict because subfields \"x\" conflict because \"name\" and \"barks\" are different fields. Use different aliases on the fields to fetch both if this was intentional. @ 1:9 1:18 1:28 1:37",
        ])
    }

    // MARK: Repeated fields: compared once per class, every conflict still reported

    /// A budget of `comparisons` that the old pairwise comparison (n² / 2 for n repeats) would
    /// exceed a thousandfold: the document must validate within it, without the abort error.
    private func expectValidWithin(_ comparisons: Int, _ document: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let errors = try validationErrors(
            [.overlappingFieldsCanBeMerged], document, options: ValidationOptions(maxFieldComparisons: comparisons))
        #expect(errors == [], sourceLocation: sourceLocation)
    }

    @Test func thousandsOfRepeatedFieldsValidateWithAHandfulOfComparisons() throws {
        // 4,900 × __typename: 12 million pairs when compared one by one.
        try expectValidWithin(10, "{ " + String(repeating: "__typename ", count: 4_900) + "}")
        try expectValidWithin(10, "{ dog { " + String(repeating: "name ", count: 4_900) + "} }")
    }

    @Test func repeatedFieldsWithSubSelectionsValidateWithAHandfulOfComparisons() throws {
        try expectValidWithin(10, "{ " + String(repeating: "dog { name barks } ", count: 2_400) + "}")
        try expectValidWithin(20, "{ " + String(repeating: "dog { mother { name } father { name } } ", count: 1_000) + "}")
    }

    @Test func repeatedFragmentsAndInlineFragmentsValidateWithAHandfulOfComparisons() throws {
        try expectValidWithin(20, "{ dog { " + String(repeating: "...F ", count: 2_000) + "} } fragment F on Dog { name barks }")
        try expectValidWithin(20, "{ catOrDog { " + String(repeating: "... on Dog { name } ... on Cat { name } ", count: 1_000) + "} }")
        // The same sub-selections met again below other fields are not compared again.
        try expectValidWithin(40, "{ " + String(repeating: "dog { ...F } dog { mother { name } } ", count: 500) + "} fragment F on Dog { mother { name } }")
    }

    @Test func reportsEveryConflictingPairAmongRepeatedFields() throws {
        let message = "Fields \"x\" conflict because \"name\" and \"barks\" are different fields. Use different aliases on the fields to fetch both if this was intentional."
        try expectErrors(.overlappingFieldsCanBeMerged, "{ dog { x: name x: name x: barks } }", [
            "\(message) @ 1:9 1:25", "\(message) @ 1:17 1:25",
        ])
        // Pairs in written order, as graphql-js compares them.
        let reversed = "Fields \"x\" conflict because \"barks\" and \"name\" are different fields. Use different aliases on the fields to fetch both if this was intentional."
        try expectErrors(.overlappingFieldsCanBeMerged, "{ dog { x: name x: barks x: name x: barks } }", [
            "\(message) @ 1:9 1:17", "\(message) @ 1:9 1:34", "\(reversed) @ 1:17 1:26", "\(message) @ 1:26 1:34",
        ])
    }

    @Test func reportsConflictsInsideRepeatedFieldsForEveryPair() throws {
        // Each `mother` conflicts within itself, and the two conflict with each other through
        // their subfields, as graphql-js reports them.
        let errors = try validationErrors([.overlappingFieldsCanBeMerged], "{ dog { mother { x: name x: barks } mother { x: name x: barks } } }")
        #expect(errors.count == 3)
        #expect(errors.filter { $0.hasPrefix("Fields \"mother\" conflict because subfields \"x\" conflict") }.count == 1)
        #expect(errors.filter { $0.hasPrefix("Fields \"x\" conflict") }.count == 2)
    }

    @Test func reportsDifferingArgumentsOfOtherwiseRepeatedFields() throws {
        let errors = try validationErrors(
            [.overlappingFieldsCanBeMerged],
            "{ dog { " + String(repeating: "doesKnowCommand(dogCommand: SIT) ", count: 3) + "doesKnowCommand(dogCommand: HEEL) } }")
        #expect(errors.count == 3)
        #expect(errors.allSatisfy { $0.contains("they have differing arguments") })
    }

    @Test func argumentsCompareInAnyOrderAndInputObjectsByFieldName() throws {
        try expectValid(.overlappingFieldsCanBeMerged, "{ dog { isAtLocation(x: 1, y: 2) isAtLocation(y: 2, x: 1) } }")
        try expectErrors(.overlappingFieldsCanBeMerged, "{ dog { isAtLocation(x: 1, y: 2) isAtLocation(x: 2, y: 1) } }", [
            "Fields \"isAtLocation\" conflict because they have differing arguments. Use different aliases on the fields to fetch both if this was intentional. @ 1:9 1:34",
        ])
    }

    @Test func theComparisonBudgetEndsTheRuleWithOneError() throws {
        // Fields of one name written differently must be compared pairwise: 200 of them make
        // 19,900 pairs, each a few comparisons deep.
        let document = "{ " + (0..<200).map { "dog { " + String(repeating: "name ", count: $0 + 1) + "} " }.joined() + "}"
        try expectValidWithin(ValidationOptions.defaultMaxFieldComparisons, document)
        let errors = try validationErrors(
            [.overlappingFieldsCanBeMerged], document, options: ValidationOptions(maxFieldComparisons: 1_000))
        #expect(errors == [
            "Validation aborted: checking that fields of the same name can be merged needs more than 1000 comparisons."
                + " Select fewer fields of the same name, or spread fewer fragments together. @ 1:1",
        ])
    }
}
