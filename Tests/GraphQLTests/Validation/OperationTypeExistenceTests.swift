import Testing

import GraphQL

/// `OperationTypeExistence`: valid and invalid documents with the expected messages and locations.
@Suite struct OperationTypeExistenceTests {
    @Test func acceptsOperationsTheSchemaSupports() throws {
        try expectValid(.operationTypeExistence, "query { dog { name } } mutation { renameDog(name: \"x\") { name } } subscription { catSubscribe { name } }")
    }

    @Test func reportsMutationsAndSubscriptionsWithoutRootType() throws {
        try expectErrors(.operationTypeExistence, "mutation { field } subscription { field }", [
            "The mutation operation is not supported by the schema. @ 1:1",
            "The subscription operation is not supported by the schema. @ 1:20",
        ], schema: queryOnlySchema)
    }
}
