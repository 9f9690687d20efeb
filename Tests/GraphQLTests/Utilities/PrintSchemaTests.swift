import Testing
@testable import GraphQL

struct PrintSchemaTests {
    static let sdl = #"""
        directive @key(fields: String!) repeatable on OBJECT | INTERFACE

        """Described directive"""
        directive @auth(
          """Who may see it"""
          role: Role = ADMIN
        ) on FIELD_DEFINITION

        """
        The root.
        Two lines.
        """
        type Query implements Node @key(fields: "id") {
          id: ID!
          """The items"""
          items(first: Int = 10, filter: Filter = {tags: ["a"], exact: true}): [Item!]! @deprecated(reason: "Use `search`.")
          old: String @deprecated
          choice(c: Choice): Int
        }

        interface Node {
          id: ID!
        }

        union Item = Query | Thing

        type Thing {
          name: String
        }

        enum Role {
          ADMIN
          """A member"""
          MEMBER @deprecated
        }

        input Filter {
          tags: [String!]
          exact: Boolean = false
          role: Role
        }

        input Choice @oneOf {
          a: Int
          b: String
        }

        scalar DateTime @specifiedBy(url: "https://scalars.graphql.org/andimarek/date-time")
        """#

    @Test func printsInGraphQLJSFormat() throws {
        let printed = printSchema(try buildSchema(sdl: Self.sdl))
        #expect(printed == #"""
            directive @key(fields: String!) repeatable on OBJECT | INTERFACE

            """Described directive"""
            directive @auth(
              """Who may see it"""
              role: Role = ADMIN
            ) on FIELD_DEFINITION

            """
            The root.
            Two lines.
            """
            type Query implements Node {
              id: ID!

              """The items"""
              items(first: Int = 10, filter: Filter = {tags: ["a"], exact: true}): [Item!]! @deprecated(reason: "Use `search`.")
              old: String @deprecated
              choice(c: Choice): Int
            }

            interface Node {
              id: ID!
            }

            union Item = Query | Thing

            type Thing {
              name: String
            }

            enum Role {
              ADMIN

              """A member"""
              MEMBER @deprecated
            }

            input Filter {
              tags: [String!]
              exact: Boolean = false
              role: Role
            }

            input Choice @oneOf {
              a: Int
              b: String
            }

            scalar DateTime @specifiedBy(url: "https://scalars.graphql.org/andimarek/date-time")
            """#)
    }

    @Test func roundTripsToAnEquivalentSchema() throws {
        let first = printSchema(try buildSchema(sdl: Self.sdl))
        let second = printSchema(try buildSchema(sdl: first))
        #expect(first == second)
    }

    @Test func printsTheSchemaDefinitionOnlyForNonDefaultRootNamesOrADescription() throws {
        #expect(printSchema(try buildSchema(sdl: "type Query { a: Int }")) == "type Query {\n  a: Int\n}")
        let renamed = printSchema(try buildSchema(sdl: "schema { query: Root mutation: Mutation } type Root { a: Int } type Mutation { b: Int }"))
        #expect(renamed.hasPrefix("schema {\n  query: Root\n  mutation: Mutation\n}\n\ntype Root"))
        let described = printSchema(try buildSchema(sdl: "\"API\" schema { query: Query } type Query { a: Int }"))
        #expect(described.hasPrefix("\"\"\"API\"\"\"\nschema {\n  query: Query\n}"))
    }
}
