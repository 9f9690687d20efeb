/// The standard introspection query (graphql-js `getIntrospectionQuery`): the `__schema` with
/// every type (`...FullType`), every directive and the root operation types, which is what
/// GraphiQL, Apollo and `buildClientSchema(introspection:)` expect.
///
/// The optional parts select fields older servers may not have; the defaults match graphql-js,
/// so `introspectionQuery()` is the query those tools send by default.
/// - Parameters:
///   - descriptions: Select `description` on types, fields, arguments, enum values and directives.
///   - specifiedByURL: Select `specifiedByURL` on types.
///   - directiveIsRepeatable: Select `isRepeatable` on directives.
///   - schemaDescription: Select the schema's `description` (only with `descriptions`).
///   - inputValueDeprecation: Select deprecated arguments and input fields too, with
///     `isDeprecated` and `deprecationReason`.
///   - oneOf: Select `isOneOf` on types.
///   - typeDepth: How many `ofType` levels the type-reference fragment follows (0 to 100);
///     9 covers `[[T!]!]!`-style references with room to spare.
public func introspectionQuery(
    descriptions: Bool = true, specifiedByURL: Bool = false, directiveIsRepeatable: Bool = false,
    schemaDescription: Bool = false, inputValueDeprecation: Bool = false, oneOf: Bool = false,
    typeDepth: Int = 9
) -> String {
    precondition((0...100).contains(typeDepth), "typeDepth must be between 0 and 100; the default is 9.")
    let description = descriptions ? "description" : ""
    let specifiedBy = specifiedByURL ? "specifiedByURL" : ""
    let repeatable = directiveIsRepeatable ? "isRepeatable" : ""
    let schemaDescriptionField = schemaDescription ? description : ""
    let oneOfField = oneOf ? "isOneOf" : ""
    func inputDeprecation(_ text: String) -> String { inputValueDeprecation ? text : "" }
    func ofType(_ level: Int, _ indentation: String) -> String {
        guard level > 0 else { return "" }
        return "\n\(indentation)ofType {\n\(indentation)  kind\n\(indentation)  name"
            + ofType(level - 1, indentation + "  ") + "\n\(indentation)}"
    }
    let lines = """
    query IntrospectionQuery {
      __schema {
        \(schemaDescriptionField)
        queryType { name kind }
        mutationType { name kind }
        subscriptionType { name kind }
        types {
          ...FullType
        }
        directives {
          name
          \(description)
          \(repeatable)
          locations
          args\(inputDeprecation("(includeDeprecated: true)")) {
            ...InputValue
          }
        }
      }
    }

    fragment FullType on __Type {
      kind
      name
      \(description)
      \(specifiedBy)
      \(oneOfField)
      fields(includeDeprecated: true) {
        name
        \(description)
        args\(inputDeprecation("(includeDeprecated: true)")) {
          ...InputValue
        }
        type {
          ...TypeRef
        }
        isDeprecated
        deprecationReason
      }
      inputFields\(inputDeprecation("(includeDeprecated: true)")) {
        ...InputValue
      }
      interfaces {
        ...TypeRef
      }
      enumValues(includeDeprecated: true) {
        name
        \(description)
        isDeprecated
        deprecationReason
      }
      possibleTypes {
        ...TypeRef
      }
    }

    fragment InputValue on __InputValue {
      name
      \(description)
      type { ...TypeRef }
      defaultValue
      \(inputDeprecation("isDeprecated"))
      \(inputDeprecation("deprecationReason"))
    }

    fragment TypeRef on __Type {
      kind
      name\(ofType(typeDepth, "  "))
    }
    """
    // Options that are off leave blank lines behind; drop them so the text stays tidy.
    return lines.split(separator: "\n", omittingEmptySubsequences: false)
        .filter { !$0.allSatisfy(\.isWhitespace) || $0.isEmpty }
        .joined(separator: "\n") + "\n"
}
