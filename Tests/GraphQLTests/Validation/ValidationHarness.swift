import Testing

import GraphQL

/// The schema of graphql-js's validation tests (its `harness.ts`), with a OneOf input, a
/// mutation and a subscription root, and the directives the rule tests use.
let validationTestSchema: Schema = {
    let sdl = """
        interface Being { name(surname: Boolean): String }
        interface Mammal { mother: Mammal father: Mammal }
        interface Pet implements Being { name(surname: Boolean): String }
        interface Canine implements Mammal { name(surname: Boolean): String mother: Canine father: Canine }
        enum DogCommand { SIT HEEL DOWN }
        type Dog implements Being & Pet & Mammal & Canine {
          name(surname: Boolean): String
          nickname: String
          barkVolume: Int
          barks: Boolean
          doesKnowCommand(dogCommand: DogCommand): Boolean
          isHouseTrained(atOtherHomes: Boolean = true): Boolean
          isAtLocation(x: Int, y: Int): Boolean
          mother: Dog
          father: Dog
        }
        type Cat implements Being & Pet {
          name(surname: Boolean): String
          nickname: String
          meows: Boolean
          meowsVolume: Int
          furColor: FurColor
        }
        union CatOrDog = Cat | Dog
        interface Intelligent { iq: Int }
        type Human implements Being & Intelligent {
          name(surname: Boolean): String
          pets: [Pet]
          relatives: [Human]!
          iq: Int
        }
        type Alien implements Being & Intelligent { name(surname: Boolean): String numEyes: Int iq: Int }
        union DogOrHuman = Dog | Human
        union HumanOrAlien = Human | Alien
        enum FurColor { BROWN BLACK TAN SPOTTED NO_FUR UNKNOWN }
        input ComplexInput {
          requiredField: Boolean!
          nonNullField: Boolean! = false
          intField: Int
          stringField: String
          booleanField: Boolean
          stringListField: [String]
        }
        input OneOfInput @oneOf { stringField: String intField: Int }
        type ComplicatedArgs {
          intArgField(intArg: Int): String
          nonNullIntArgField(nonNullIntArg: Int!): String
          stringArgField(stringArg: String): String
          booleanArgField(booleanArg: Boolean): String
          enumArgField(enumArg: FurColor): String
          floatArgField(floatArg: Float): String
          idArgField(idArg: ID): String
          stringListArgField(stringListArg: [String]): String
          stringListNonNullArgField(stringListNonNullArg: [String!]): String
          complexArgField(complexArg: ComplexInput): String
          oneOfArgField(oneOfArg: OneOfInput): String
          multipleReqs(req1: Int!, req2: Int!): String
          nonNullFieldWithDefault(arg: Int! = 0): String
          multipleOpts(opt1: Int = 0, opt2: Int = 0): String
          multipleOptAndReq(req1: Int!, req2: Int!, opt1: Int = 0, opt2: Int = 0): String
        }
        type QueryRoot {
          human(id: ID): Human
          alien: Alien
          dog: Dog
          cat: Cat
          pet: Pet
          catOrDog: CatOrDog
          dogOrHuman: DogOrHuman
          humanOrAlien: HumanOrAlien
          complicatedArgs: ComplicatedArgs
        }
        type MutationRoot { renameDog(name: String!): Dog }
        type SubscriptionRoot { catSubscribe: Cat dogSubscribe: Dog }
        schema { query: QueryRoot mutation: MutationRoot subscription: SubscriptionRoot }
        directive @onQuery on QUERY
        directive @onMutation on MUTATION
        directive @onSubscription on SUBSCRIPTION
        directive @onField on FIELD
        directive @onFragmentDefinition on FRAGMENT_DEFINITION
        directive @onFragmentSpread on FRAGMENT_SPREAD
        directive @onInlineFragment on INLINE_FRAGMENT
        directive @onVariableDefinition on VARIABLE_DEFINITION
        directive @repeatable repeatable on FIELD
        directive @withArg(required: Int!, optional: String) on FIELD
        """
    do {
        return try buildSchema(sdl: sdl)
    } catch {
        fatalError("the validation test schema does not build: \(error)")
    }
}()

/// The errors `rules` report for `document`, each as `message @ line:column …`.
func validationErrors(
    _ rules: [ValidationRule], _ document: String, schema: Schema = validationTestSchema,
    options: ValidationOptions = ValidationOptions()
) throws -> [String] {
    let parsed = try Parser.parse(document)
    return validate(schema: schema, document: parsed, rules: rules, options: options).map { error in
        error.locations.isEmpty ? error.message : error.message + " @ " + error.locations.map(\.description).joined(separator: " ")
    }
}

/// Expects `rule` to accept `document`.
func expectValid(
    _ rule: ValidationRule, _ document: String, schema: Schema = validationTestSchema,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws {
    let actual = try validationErrors([rule], document, schema: schema)
    #expect(actual == [], "reported: \(actual)", sourceLocation: sourceLocation)
}

/// Expects `rule` to report exactly `expected` (`message @ line:column …`) for `document`.
func expectErrors(
    _ rule: ValidationRule, _ document: String, _ expected: [String], schema: Schema = validationTestSchema,
    options: ValidationOptions = ValidationOptions(), sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws {
    let actual = try validationErrors([rule], document, schema: schema, options: options)
    #expect(actual == expected, "reported: \(actual)", sourceLocation: sourceLocation)
}

/// A schema with only a query root type, for the operation type existence tests.
let queryOnlySchema: Schema = {
    do {
        return try buildSchema(sdl: "type Query { field: String }")
    } catch {
        fatalError("the query-only schema does not build: \(error)")
    }
}()
