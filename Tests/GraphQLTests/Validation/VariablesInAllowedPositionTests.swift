import Testing

import GraphQL

/// `VariablesInAllowedPosition`: valid and invalid documents with the expected messages and locations.
@Suite struct VariablesInAllowedPositionTests {
    @Test func acceptsMatchingAndDefaultedVariables() throws {
        try expectValid(.variablesInAllowedPosition, "query Q($a: Int!, $b: Int = 1, $c: Boolean, $d: String!) { complicatedArgs { nonNullIntArgField(nonNullIntArg: $a) x: nonNullIntArgField(nonNullIntArg: $b) nonNullFieldWithDefault(arg: $a) stringListArgField(stringListArg: [$d]) oneOfArgField(oneOfArg: {stringField: $d}) } dog { isHouseTrained(atOtherHomes: $c) } }")
    }

    @Test func reportsNullableVariableInNonNullPosition() throws {
        try expectErrors(.variablesInAllowedPosition, "query Q($a: Int) { complicatedArgs { nonNullIntArgField(nonNullIntArg: $a) } }", [
            "Variable \"$a\" of type \"Int\" used in position expecting type \"Int!\". @ 1:9 1:72",
        ])
    }

    @Test func reportsMismatchedListVariable() throws {
        try expectErrors(.variablesInAllowedPosition, "query Q($a: [String]) { complicatedArgs { stringListNonNullArgField(stringListNonNullArg: $a) } }", [
            "Variable \"$a\" of type \"[String]\" used in position expecting type \"[String!]\". @ 1:9 1:91",
        ])
    }

    @Test func reportsNullableVariableInOneOfField() throws {
        try expectErrors(.variablesInAllowedPosition, "query Q($a: String) { complicatedArgs { oneOfArgField(oneOfArg: {stringField: $a}) } }", [
            "Variable \"$a\" is of type \"String\" but must be non-nullable to be used for OneOf Input Object \"OneOfInput\". @ 1:9 1:79",
        ])
    }
}
