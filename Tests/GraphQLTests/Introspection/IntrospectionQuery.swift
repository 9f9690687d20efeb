import GraphQL

/// graphql-js's `getIntrospectionQuery` with every option on, as clients send it; shared by
/// the introspection, validation and limits tests.
let standardIntrospectionQuery = introspectionQuery(
    descriptions: true, specifiedByURL: true, directiveIsRepeatable: true, schemaDescription: true,
    inputValueDeprecation: true, oneOf: true)
