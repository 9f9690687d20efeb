import Foundation
import GraphQL
import HearthHTTP
import TestPython
import Testing

/// `/graphql` of the real binary against the graphql-http server audits
/// (graphql/graphql-http `src/audits/server.ts`): every MUST, and the SHOULDs Hearth follows,
/// one test per audit named after it. Where the GraphQL-over-HTTP draft recommends otherwise
/// (400 for malformed requests with `application/json`; `application/graphql-response+json`
/// without `Accept`), the test asserts the draft's behaviour and says so.
@Suite struct GraphQLOverHTTPTests {
    /// One request on a new connection to a fresh server.
    private static func send(
        method: String = "POST", target: String = "/graphql", headers: [String: String] = [:], body: String? = nil
    ) throws -> HTTPTestClient.Response {
        let server = try ServerProcess()
        defer { server.remove() }
        return try send(to: server, method: method, target: target, headers: headers, body: body)
    }

    fileprivate static func send(
        to server: ServerProcess, method: String = "POST", target: String = "/graphql", headers: [String: String] = [:],
        body: String? = nil
    ) throws -> HTTPTestClient.Response {
        let client = try server.connect()
        defer { client.close() }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: e2e\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.utf8.count)\r\n" }
        try client.send(head + "\r\n" + (body ?? ""))
        return try client.readResponse()
    }

    private static func post(_ body: String, accept: String? = nil, contentType: String? = "application/json") throws -> HTTPTestClient.Response {
        var headers: [String: String] = [:]
        if let accept { headers["Accept"] = accept }
        if let contentType { headers["Content-Type"] = contentType }
        return try send(headers: headers, body: body)
    }

    private static func get(_ parameters: [String: String], accept: String? = nil) throws -> HTTPTestClient.Response {
        var components = URLComponents()
        components.queryItems = parameters.sorted(by: { $0.key < $1.key }).map { URLQueryItem(name: $0.key, value: $0.value) }
        // URLComponents leaves `+` and `&`-free reserved characters alone; encode what a form would.
        let query = components.percentEncodedQuery!.replacingOccurrences(of: "+", with: "%2B")
        return try send(method: "GET", target: "/graphql?" + query, headers: accept.map { ["Accept": $0] } ?? [:])
    }

    private static func json(_ response: HTTPTestClient.Response) throws -> JSON {
        try JSON(parsing: response.body)
    }

    private static let typename = #"{"query":"{ __typename }"}"#
    private static let graphQLResponse = "application/graphql-response+json"
    private static let invalidValues = [#"{"obj":"ect"}"#, "0", "false", #"["array"]"#]

    // MARK: Media types

    @Test("22EB SHOULD accept application/graphql-response+json and match the content-type")
    func acceptsGraphQLResponseJSON() throws {
        let response = try Self.post(Self.typename, accept: Self.graphQLResponse)
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/graphql-response+json; charset=utf-8")
    }

    @Test("4655 MUST accept application/json and match the content-type")
    func acceptsApplicationJSON() throws {
        let response = try Self.post(Self.typename, accept: "application/json")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
    }

    @Test("47DE SHOULD accept */* and use application/json for the content-type")
    func acceptsAnyMediaType() throws {
        let response = try Self.post(Self.typename, accept: "*/*")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
    }

    @Test("80D8 without Accept: the draft's application/graphql-response+json (the audit's SHOULD says application/json)")
    func missingAcceptFollowsTheDraft() throws {
        let response = try Self.get(["query": "{ __typename }"])
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/graphql-response+json; charset=utf-8")
    }

    @Test("82A3 MUST use utf-8 encoding when responding")
    func respondsInUTF8() throws {
        let response = try Self.post(#"{"query":"{ __type(name: \"ServerInfo\") { description } }"}"#)
        #expect(response.status == 200)
        #expect(String(validating: response.body, as: UTF8.self) != nil)
    }

    @Test("BF61 MUST accept utf-8 encoded request")
    func acceptsUTF8Charset() throws {
        #expect(try Self.post(Self.typename, contentType: "application/json; charset=utf-8").status == 200)
    }

    @Test("78D5 MUST assume utf-8 in request if encoding is unspecified")
    func assumesUTF8() throws {
        let response = try Self.post(#"{"query":"{ __typename }","extensions":{"note":"ünïcödé ✓"}}"#)
        #expect(response.status == 200)
    }

    @Test("406 when neither response media type is acceptable")
    func refusesUnacceptableMediaTypes() throws {
        #expect(try Self.post(Self.typename, accept: "text/html").status == 406)
    }

    @Test("415 for a charset other than UTF-8")
    func refusesOtherCharsets() throws {
        #expect(try Self.post(Self.typename, contentType: "application/json; charset=iso-8859-1").status == 415)
    }

    // MARK: Request

    @Test("2C94 MUST accept POST requests")
    func acceptsPost() throws {
        #expect(try Self.post(Self.typename).status == 200)
    }

    @Test("5A70 MAY accept application/x-www-form-urlencoded formatted GET requests")
    func acceptsGet() throws {
        #expect(try Self.get(["query": "{ __typename }"]).status == 200)
    }

    @Test("9C48 MAY NOT allow executing mutations on GET requests")
    func refusesMutationsOverGet() throws {
        let response = try Self.get(["query": "mutation { __typename }"], accept: Self.graphQLResponse)
        #expect((400...499).contains(response.status))
    }

    @Test("9ABE SHOULD respond with 4xx status code if content-type is not supplied on POST requests")
    func refusesPostWithoutContentType() throws {
        #expect(try Self.post(Self.typename, contentType: nil).status == 415)
    }

    @Test("03D4 MUST accept application/json POST requests")
    func acceptsJSONPosts() throws {
        #expect(try Self.post(Self.typename, contentType: "application/json").status == 200)
    }

    @Test("7267 MUST require a request body on POST")
    func requiresABody() throws {
        let response = try Self.send(headers: ["Content-Type": "application/json"])
        #expect(response.status == 400)
        #expect(try Self.json(response)["errors"] != nil)
    }

    // MARK: Request parameters

    @Test("6610 SHOULD use 400 status code on missing {query} parameter when accepting application/graphql-response+json")
    func missingQueryIs400() throws {
        #expect(try Self.post(#"{"notquery":"{ __typename }"}"#, accept: Self.graphQLResponse).status == 400)
    }

    @Test("3715 missing {query} with application/json: the draft's 400 with errors (the audit's SHOULD says 200)")
    func missingQueryWithJSONFollowsTheDraft() throws {
        let response = try Self.post(#"{"notquery":"{ __typename }"}"#, accept: "application/json")
        #expect(response.status == 400)
        #expect(try Self.json(response)["errors"] != nil)
    }

    @Test("4F50-4F53 SHOULD use 400 status code on object/number/boolean/array {query} parameter when accepting application/graphql-response+json",
          arguments: invalidValues)
    func invalidQueryIs400(value: String) throws {
        #expect(try Self.post(#"{"query":\#(value)}"#, accept: Self.graphQLResponse).status == 400)
    }

    @Test("9FE0-9FE3 invalid {query} with application/json: the draft's 400 with errors (the audit's SHOULD says 200)",
          arguments: invalidValues)
    func invalidQueryWithJSONFollowsTheDraft(value: String) throws {
        let response = try Self.post(#"{"query":\#(value)}"#, accept: "application/json")
        #expect(response.status == 400)
        #expect(try Self.json(response)["errors"] != nil)
    }

    @Test("34A2 SHOULD allow string {query} parameter when accepting application/graphql-response+json")
    func stringQueryWithGraphQLResponseJSON() throws {
        #expect(try Self.post(Self.typename, accept: Self.graphQLResponse).status == 200)
    }

    @Test("13EE MUST allow string {query} parameter when accepting application/json")
    func stringQueryWithJSON() throws {
        let response = try Self.post(Self.typename, accept: "application/json")
        #expect(response.status == 200)
        #expect(try Self.json(response) == ["data": ["__typename": "Query"]])
    }

    @Test("E3E0-E3E3 SHOULD use 400 status code on object/number/boolean/array {operationName} parameter when accepting application/graphql-response+json",
          arguments: invalidValues)
    func invalidOperationNameIs400(value: String) throws {
        let response = try Self.post(#"{"operationName":\#(value),"query":"{ __typename }"}"#, accept: Self.graphQLResponse)
        #expect(response.status == 400)
    }

    @Test("FB90-FB93 invalid {operationName} with application/json: the draft's 400 with errors (the audit's SHOULD says 200)",
          arguments: invalidValues)
    func invalidOperationNameWithJSONFollowsTheDraft(value: String) throws {
        let response = try Self.post(#"{"operationName":\#(value),"query":"{ __typename }"}"#, accept: "application/json")
        #expect(response.status == 400)
        #expect(try Self.json(response)["errors"] != nil)
    }

    @Test("8161 SHOULD allow string {operationName} parameter when accepting application/graphql-response+json")
    func stringOperationNameWithGraphQLResponseJSON() throws {
        let response = try Self.post(#"{"operationName":"Query","query":"query Query { __typename }"}"#, accept: Self.graphQLResponse)
        #expect(response.status == 200)
    }

    @Test("B8B3 MUST allow string {operationName} parameter when accepting application/json")
    func stringOperationNameWithJSON() throws {
        let response = try Self.post(#"{"operationName":"Query","query":"query Query { __typename }"}"#, accept: "application/json")
        #expect(response.status == 200)
        #expect(try Self.json(response)["errors"] == nil)
    }

    @Test("94B0-94B2 SHOULD allow null {variables}, {operationName} and {extensions} when accepting application/graphql-response+json",
          arguments: ["variables", "operationName", "extensions"])
    func nullParametersWithGraphQLResponseJSON(parameter: String) throws {
        let response = try Self.post(#"{"query":"{ __typename }","\#(parameter)":null}"#, accept: Self.graphQLResponse)
        #expect(response.status == 200)
        #expect(try Self.json(response)["errors"] == nil)
    }

    @Test("0220-0222 MUST allow null {variables}, {operationName} and {extensions} when accepting application/json",
          arguments: ["variables", "operationName", "extensions"])
    func nullParametersWithJSON(parameter: String) throws {
        let response = try Self.post(#"{"query":"{ __typename }","\#(parameter)":null}"#, accept: "application/json")
        #expect(response.status == 200)
        #expect(try Self.json(response)["errors"] == nil)
    }

    @Test("69B0-69B3 SHOULD use 400 status code on string/number/boolean/array {variables} when accepting application/graphql-response+json",
          arguments: [#""string""#, "0", "false", #"["array"]"#])
    func invalidVariablesAre400(value: String) throws {
        #expect(try Self.post(#"{"query":"{ __typename }","variables":\#(value)}"#, accept: Self.graphQLResponse).status == 400)
    }

    @Test("F050-F053 invalid {variables} with application/json: the draft's 400 with errors (the audit's SHOULD says 200)",
          arguments: [#""string""#, "0", "false", #"["array"]"#])
    func invalidVariablesWithJSONFollowTheDraft(value: String) throws {
        let response = try Self.post(#"{"query":"{ __typename }","variables":\#(value)}"#, accept: "application/json")
        #expect(response.status == 400)
        #expect(try Self.json(response)["errors"] != nil)
    }

    private static let typeQuery = "query Type($name: String!) { __type(name: $name) { name } }"

    @Test("2EA1 SHOULD allow map {variables} parameter when accepting application/graphql-response+json")
    func mapVariablesWithGraphQLResponseJSON() throws {
        let body = JSON.object(["query": .string(Self.typeQuery), "variables": ["name": "sometype"]]).jsonText
        #expect(try Self.post(body, accept: Self.graphQLResponse).status == 200)
    }

    @Test("28B9 MUST allow map {variables} parameter when accepting application/json")
    func mapVariablesWithJSON() throws {
        let body = JSON.object(["query": .string(Self.typeQuery), "variables": ["name": "sometype"]]).jsonText
        let response = try Self.post(body, accept: "application/json")
        #expect(response.status == 200)
        #expect(try Self.json(response) == ["data": ["__type": nil]])
    }

    @Test("D6D5 MAY allow URL-encoded JSON string {variables} parameter in GETs when accepting application/graphql-response+json")
    func urlEncodedVariablesWithGraphQLResponseJSON() throws {
        let response = try Self.get(["query": Self.typeQuery, "variables": #"{"name":"ServerInfo"}"#], accept: Self.graphQLResponse)
        #expect(response.status == 200)
        #expect(try Self.json(response) == ["data": ["__type": ["name": "ServerInfo"]]])
    }

    @Test("6A70 MAY allow URL-encoded JSON string {variables} parameter in GETs when accepting application/json")
    func urlEncodedVariablesWithJSON() throws {
        let response = try Self.get(["query": Self.typeQuery, "variables": #"{"name":"sometype"}"#], accept: "application/json")
        #expect(response.status == 200)
        #expect(try Self.json(response)["errors"] == nil)
    }

    @Test("9040-9043 SHOULD use 400 status code on string/number/boolean/array {extensions} when accepting application/graphql-response+json",
          arguments: [#""string""#, "0", "false", #"["array"]"#])
    func invalidExtensionsAre400(value: String) throws {
        #expect(try Self.post(#"{"query":"{ __typename }","extensions":\#(value)}"#, accept: Self.graphQLResponse).status == 400)
    }

    @Test("3680-3683 invalid {extensions} with application/json: the draft's 400 with errors (the audit's SHOULD says 200)",
          arguments: [#""string""#, "0", "false", #"["array"]"#])
    func invalidExtensionsWithJSONFollowTheDraft(value: String) throws {
        let response = try Self.post(#"{"query":"{ __typename }","extensions":\#(value)}"#, accept: "application/json")
        #expect(response.status == 400)
        #expect(try Self.json(response)["errors"] != nil)
    }

    @Test("428F SHOULD allow map {extensions} parameter when accepting application/graphql-response+json")
    func mapExtensionsWithGraphQLResponseJSON() throws {
        #expect(try Self.post(#"{"query":"{ __typename }","extensions":{"some":"value"}}"#, accept: Self.graphQLResponse).status == 200)
    }

    @Test("1B7A MUST allow map {extensions} parameter when accepting application/json")
    func mapExtensionsWithJSON() throws {
        let response = try Self.post(#"{"query":"{ __typename }","extensions":{"some":"value"}}"#, accept: "application/json")
        #expect(response.status == 200)
        #expect(try Self.json(response)["errors"] == nil)
    }

    // MARK: Response application/json

    @Test("D477 JSON parsing failure with application/json: the draft's 400 (the audit's SHOULD says 200)")
    func unparsableJSONWithJSONFollowsTheDraft() throws {
        #expect(try Self.post(#"{ "not a JSON"#, accept: "application/json").status == 400)
    }

    @Test("F5AF invalid parameters with application/json: the draft's 400 (the audit's SHOULD says 200)")
    func invalidParametersWithJSONFollowTheDraft() throws {
        #expect(try Self.post(#"{"qeury":"{ __typename }"}"#, accept: "application/json").status == 400)
    }

    @Test("572B SHOULD use 200 status code on document parsing failure when accepting application/json")
    func parseFailureWithJSONIs200() throws {
        let response = try Self.post(#"{"query":"{"}"#, accept: "application/json")
        #expect(response.status == 200)
        #expect(try Self.json(response)["errors"]?[0]?["extensions"]?["code"] == "GRAPHQL_PARSE_FAILED")
    }

    @Test("FDE2 SHOULD use 200 status code on document validation failure when accepting application/json")
    func validationFailureWithJSONIs200() throws {
        let response = try Self.post(#"{"query":"{ 8f31403dfe404bccbb0e835f2629c6a7 }"}"#, accept: "application/json")
        #expect(response.status == 200)
        // The audit's document does not even lex (`8f…` is a malformed number); either way a request error.
        #expect(try Self.json(response)["errors"] != nil)
        let unknownField = try Self.post(#"{"query":"{ unknownField }"}"#, accept: "application/json")
        #expect(unknownField.status == 200)
        #expect(try Self.json(unknownField)["errors"]?[0]?["extensions"]?["code"] == "GRAPHQL_VALIDATION_FAILED")
    }

    // MARK: Response application/graphql-response+json

    @Test("60AA and 2163 SHOULD use 400 status code on JSON parsing failure when accepting application/graphql-response+json")
    func unparsableJSONIs400() throws {
        #expect(try Self.post(#"{ "not a JSON"#, accept: Self.graphQLResponse).status == 400)
    }

    @Test("3E36, 17C5 and 34D6 SHOULD use 400 and no data entry if parameters are invalid when accepting application/graphql-response+json")
    func invalidParametersAre400WithoutData() throws {
        let response = try Self.post(#"{"qeury":"{ __typename }"}"#, accept: Self.graphQLResponse)
        #expect(response.status == 400)
        #expect(try Self.json(response)["data"] == nil)
    }

    @Test("865D, 556A and D586 SHOULD use 400 and no data entry on document parsing failure when accepting application/graphql-response+json")
    func parseFailureIs400WithoutData() throws {
        let response = try Self.post(#"{"query":"{"}"#, accept: Self.graphQLResponse)
        #expect(response.status == 400)
        #expect(try Self.json(response)["data"] == nil)
    }

    @Test("51FE, 74FF and 5E5B SHOULD use 400 and no data entry on document validation failure when accepting application/graphql-response+json")
    func validationFailureIs400WithoutData() throws {
        let response = try Self.post(#"{"query":"{ 8f31403dfe404bccbb0e835f2629c6a7 }"}"#, accept: Self.graphQLResponse)
        #expect(response.status == 400)
        #expect(try Self.json(response)["data"] == nil)
    }
}

/// The schema the running server serves: `serverInfo`, `__typename`, and introspection that
/// rebuilds to exactly `schema.graphql`.
@Suite struct ServedSchemaTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static func post(_ server: ServerProcess, _ query: String) throws -> JSON {
        let body = JSON.object(["query": .string(query)]).jsonText
        let client = try server.connect()
        defer { client.close() }
        try client.send("POST /graphql HTTP/1.1\r\nHost: e2e\r\nContent-Type: application/json\r\nAccept: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        return try JSON(parsing: try client.readResponse().body)
    }

    @Test func typenameAndServerInfoAnswer() throws {
        let server = try ServerProcess()
        defer { server.remove() }
        let result = try Self.post(server, "{ __typename serverInfo { version startedAt } }")
        #expect(result["data"]?["__typename"] == "Query")
        guard case .string(let startedAt)? = result["data"]?["serverInfo"]?["startedAt"] else {
            Issue.record("no startedAt in \(result)")
            return
        }
        #expect(startedAt.hasSuffix("Z") && startedAt.count == 24)
        #expect(result["data"]?["serverInfo"]?["version"] != nil)
    }

    @Test func introspectionRebuildsToSchemaDotGraphQL() throws {
        let server = try ServerProcess()
        defer { server.remove() }
        let query = introspectionQuery(
            descriptions: true, specifiedByURL: true, directiveIsRepeatable: true, schemaDescription: true,
            inputValueDeprecation: true, oneOf: true)
        let result = try Self.post(server, query)
        let served = printSchema(try buildClientSchema(introspection: result["data"] ?? .null))
        let sdl = try String(contentsOf: Self.root.appendingPathComponent("schema.graphql"), encoding: .utf8)
        let expected = printSchema(try buildSchema(sdl: sdl))
        #expect(Self.sortedDefinitions(served) == Self.sortedDefinitions(expected))
    }

    @Test func graphQLCoreRebuildsTheServedSchemaToSchemaDotGraphQL() throws {
        let server = try ServerProcess()
        defer { server.remove() }
        let script = """
        import json, sys, urllib.request
        from graphql import build_client_schema, build_schema, get_introspection_query, print_schema
        query = get_introspection_query(descriptions=True, specified_by_url=True, directive_is_repeatable=True,
                                        schema_description=True, input_value_deprecation=True, one_of=True)
        request = urllib.request.Request(sys.argv[1], data=json.dumps({"query": query}).encode(),
                                         headers={"Content-Type": "application/json", "Accept": "application/graphql-response+json"})
        result = json.load(urllib.request.urlopen(request))
        served = print_schema(build_client_schema(result["data"]))
        expected = print_schema(build_schema(open(sys.argv[2]).read()))
        sys.exit(0 if served == expected else "served:\\n" + served + "\\nexpected:\\n" + expected)
        """
        let outcome = try TestPython.run(
            ["-c", script, "http://127.0.0.1:\(server.port)/graphql", Self.root.appendingPathComponent("schema.graphql").path])
        #expect(outcome.status == 0, "\(outcome.errors)")
    }

    /// The SDL's definitions (separated by blank lines) in sorted order.
    private static func sortedDefinitions(_ sdl: String) -> [String] {
        sdl.components(separatedBy: "\n\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.sorted()
    }
}
