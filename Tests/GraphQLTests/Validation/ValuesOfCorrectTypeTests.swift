import Testing

import GraphQL

/// `ValuesOfCorrectType`: valid and invalid documents with the expected messages and locations.
@Suite struct ValuesOfCorrectTypeTests {
    @Test func acceptsLiteralsOfEveryKind() throws {
        try expectValid(.valuesOfCorrectType, "{ complicatedArgs { intArgField(intArg: 2) floatArgField(floatArg: 1) idArgField(idArg: 1) enumArgField(enumArg: BROWN) stringListArgField(stringListArg: \"one\") complexArgField(complexArg: {requiredField: true, stringListField: [\"a\", null]}) oneOfArgField(oneOfArg: {intField: 1}) } }")
    }

    @Test func reportsScalarMismatch() throws {
        try expectErrors(.valuesOfCorrectType, "{ complicatedArgs { intArgField(intArg: \"3\") } }", [
            "Expected value of type \"Int\", found \"3\"; Int cannot represent non-integer value: \"3\" @ 1:41",
        ])
    }

    @Test func reportsUnknownEnumValueWithSuggestion() throws {
        try expectErrors(.valuesOfCorrectType, "{ complicatedArgs { enumArgField(enumArg: brown) } }", [
            "Expected value of type \"FurColor\", found brown; Value \"brown\" does not exist in \"FurColor\" enum. Did you mean the enum value \"BROWN\"? @ 1:43",
        ])
    }

    @Test func reportsMissingRequiredAndUnknownInputFields() throws {
        try expectErrors(.valuesOfCorrectType, "{ complicatedArgs { complexArgField(complexArg: {unknown: 1}) } }", [
            "Field \"ComplexInput.requiredField\" of required type \"Boolean!\" was not provided. @ 1:49",
            "Field \"unknown\" is not defined by type \"ComplexInput\". @ 1:50",
        ])
    }

    @Test func reportsOneOfWithTwoKeysOrNull() throws {
        try expectErrors(.valuesOfCorrectType, "{ complicatedArgs { a: oneOfArgField(oneOfArg: {intField: 1, stringField: \"x\"}) b: oneOfArgField(oneOfArg: {intField: null}) } }", [
            "OneOf Input Object \"OneOfInput\" must specify exactly one key. @ 1:48",
            "Field \"OneOfInput.intField\" must be non-null. @ 1:108",
        ])
    }

    @Test func reportsNullForNonNullAndBadListItems() throws {
        try expectErrors(.valuesOfCorrectType, "{ complicatedArgs { nonNullIntArgField(nonNullIntArg: null) stringListNonNullArgField(stringListNonNullArg: [\"a\", null]) } }", [
            "Expected value of type \"Int!\", found null. @ 1:55",
            "Expected value of type \"String!\", found null. @ 1:115",
        ])
    }

    @Test func reportsBadVariableDefaults() throws {
        try expectErrors(.valuesOfCorrectType, "query Q($a: Int = \"one\") { complicatedArgs { intArgField(intArg: $a) } }", [
            "Expected value of type \"Int\", found \"one\"; Int cannot represent non-integer value: \"one\" @ 1:19",
        ])
    }
}
