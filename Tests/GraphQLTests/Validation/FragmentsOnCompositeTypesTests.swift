import Testing

import GraphQL

/// `FragmentsOnCompositeTypes`: valid and invalid documents with the expected messages and locations.
@Suite struct FragmentsOnCompositeTypesTests {
    @Test func acceptsObjectInterfaceAndUnionConditions() throws {
        try expectValid(.fragmentsOnCompositeTypes, "{ dog { ... on Pet { name } ... { name } } } fragment F on CatOrDog { __typename }")
    }

    @Test func reportsScalarAndInputConditions() throws {
        try expectErrors(.fragmentsOnCompositeTypes, "{ dog { ... on Boolean { name } } } fragment F on ComplexInput { name }", [
            "Fragment cannot condition on non composite type \"Boolean\". @ 1:16",
            "Fragment \"F\" cannot condition on non composite type \"ComplexInput\". @ 1:51",
        ])
    }
}
