/// Documents exercising every construct of the grammar, in the spirit of graphql-js's
/// kitchen-sink fixtures (written for this project).
enum Fixtures {
    static let kitchenSinkQuery = #"""
        # A comment that the parser ignores
        "Fetches a node and what its friends like."
        query queryName(
          $foo: ComplexType
          $site: Site = MOBILE
          "described variable" $nonNull: Boolean! = false
          $list: [[Int!]]! = [[1, 2], [3]]
        ) @onQuery {
          whoever123is: node(id: [123, 456]) {
            id
            ... on User @onInlineFragment {
              field2 {
                id
                alias: field1(first: 10, after: $foo) @include(if: $foo) {
                  id
                  ...frag @onFragmentSpread
                }
              }
            }
            ... @skip(unless: $foo) {
              id
            }
            ... {
              id
            }
          }
        }

        mutation likeStory @onMutation {
          like(story: 123) @onField {
            story {
              id @onField
            }
          }
        }

        subscription StoryLikeSubscription($input: StoryLikeSubscribeInput @onVariableDefinition) @onSubscription {
          storyLikeSubscribe(input: $input) {
            story {
              likers {
                count
              }
            }
          }
        }

        """
        Describes a fragment.
        """
        fragment frag on Friend @onFragmentDefinition {
          foo(
            size: $size
            bar: $b
            obj: {key: "value", block: """
              block string uses \"""
            """, float: -1.5e-3, list: [RED, null, true, false]}
            onceMore: "é \u{1F600} \uD83D\uDE00 \" \\ \n"
          )
        }

        {
          unnamed(truthy: true, falsy: false, nullish: null)
          query
          on: fragment
        }

        query {
          __typename
        }
        """#

    static let kitchenSinkSchema = #"""
        """
        The schema's description.
        """
        schema @onSchema {
          query: QueryType
          mutation: MutationType
        }

        """
        This is a description
        of the `Foo` type.
        """
        type Foo implements Bar & Baz & Two {
          "Description of the `one` field."
          one: Type
          """This is a description of the `two` field."""
          two(
            """This is a description of the `argument` argument."""
            argument: InputType!
          ): Type
          three(argument: InputType, other: String): Int
          four(argument: String = "string"): String
          five(argument: [String] = ["string", "string"]): String
          six(argument: InputType = {key: "value"}): Type
          seven(argument: Int = null): Type
        }

        type AnnotatedObject @onObject(arg: "value") {
          annotatedField(arg: Type = "default" @onArgumentDefinition): Type @onField
        }

        type UndefinedType

        extend type Foo {
          seven(argument: [String]): Type
        }

        extend type Foo @onType

        interface Bar {
          one: Type
          four(argument: String = "string"): String
        }

        interface AnnotatedInterface @onInterface {
          annotatedField(arg: Type @onArgumentDefinition): Type @onField
        }

        interface UndefinedInterface

        extend interface Bar implements Two {
          two(argument: InputType!): Type
        }

        extend interface Bar @onInterface

        interface Baz implements Bar & Two {
          one: Type
          two(argument: InputType!): Type
          four(argument: String = "string"): String
        }

        union Feed = Story | Article | Advert

        union AnnotatedUnion @onUnion = A | B

        union AnnotatedUnionTwo @onUnion = | A | B

        union UndefinedUnion

        extend union Feed = Photo | Video

        extend union Feed @onUnion

        scalar CustomScalar

        scalar AnnotatedScalar @onScalar

        extend scalar CustomScalar @onScalar

        enum Site {
          """This is a description of the `DESKTOP` value"""
          DESKTOP
          "This is a description of the `MOBILE` value"
          MOBILE
          "This is a description of the `WEB` value"
          WEB
        }

        enum AnnotatedEnum @onEnum {
          ANNOTATED_VALUE @onEnumValue
          OTHER_VALUE
        }

        enum UndefinedEnum

        extend enum Site {
          VR
        }

        extend enum Site @onEnum

        input InputType @oneOf {
          key: String!
          answer: Int = 42
        }

        input AnnotatedInput @onInputObject {
          annotatedField: Type @onInputFieldDefinition
        }

        input UndefinedInput

        extend input InputType {
          other: Float = 1.23e4 @onInputFieldDefinition
        }

        extend input InputType @onInputObject

        """
        This is a description of the `@skip` directive
        """
        directive @skip(
          """This is a description of the `if` argument"""
          if: Boolean! @onArgumentDefinition
        ) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT

        directive @include(if: Boolean!) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT

        directive @include2(if: Boolean!) on | FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT

        directive @myRepeatableDir(name: String!) repeatable on OBJECT | INTERFACE

        extend schema @onSchema

        extend schema @onSchema {
          subscription: SubscriptionType
        }
        """#
}
