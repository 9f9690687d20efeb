import Testing

import GraphQL

/// `FieldsOnCorrectType`: valid and invalid documents with the expected messages and locations.
@Suite struct FieldsOnCorrectTypeTests {
    @Test func acceptsDefinedAndMetaFields() throws {
        try expectValid(.fieldsOnCorrectType, "{ __typename dog { __typename name } catOrDog { __typename } }")
    }

    @Test func reportsUnknownFieldWithFieldSuggestion() throws {
        try expectErrors(.fieldsOnCorrectType, "{ cat { meowVolume } }", [
            "Cannot query field \"meowVolume\" on type \"Cat\". Did you mean \"meowsVolume\"? @ 1:9",
        ])
    }

    @Test func suggestsInlineFragmentsOnAbstractTypes() throws {
        try expectErrors(.fieldsOnCorrectType, "{ catOrDog { name } }", [
            "Cannot query field \"name\" on type \"CatOrDog\". Did you mean to use an inline fragment on \"Being\", \"Pet\", \"Canine\", \"Cat\", or \"Dog\"? @ 1:14",
        ])
    }
}
