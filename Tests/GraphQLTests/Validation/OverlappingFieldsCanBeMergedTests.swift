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
}
