import Testing

import GraphQL

/// `UniqueInputFieldNames`: valid and invalid documents with the expected messages and locations.
@Suite struct UniqueInputFieldNamesTests {
    @Test func acceptsDistinctFieldsAtEachLevel() throws {
        try expectValid(.uniqueInputFieldNames, "{ complicatedArgs { complexArgField(complexArg: {requiredField: true, intField: 1}) } }")
    }

    @Test func reportsRepeatedFields() throws {
        try expectErrors(.uniqueInputFieldNames, "{ complicatedArgs { complexArgField(complexArg: {requiredField: true, intField: 1, intField: 2}) } }", [
            "There can be only one input field named \"intField\". @ 1:71 1:84",
        ])
    }
}
