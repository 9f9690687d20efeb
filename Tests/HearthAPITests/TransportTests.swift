import GraphQL
import HearthAPI
import HearthHTTP
import Testing

struct AcceptNegotiationTests {
    @Test func missingAcceptMeansGraphQLResponseJSON() {
        #expect(AcceptHeader(nil).preferred == .graphQLResponseJSON)
    }

    @Test func exactTypesAreChosen() {
        #expect(AcceptHeader("application/json").preferred == .json)
        #expect(AcceptHeader("application/graphql-response+json").preferred == .graphQLResponseJSON)
    }

    @Test func wildcardsChooseApplicationJSON() {
        #expect(AcceptHeader("*/*").preferred == .json)
        #expect(AcceptHeader("application/*").preferred == .json)
    }

    @Test func higherQualityWins() {
        #expect(AcceptHeader("application/graphql-response+json;q=0.5, application/json").preferred == .json)
        #expect(AcceptHeader("application/graphql-response+json, application/json;q=0.9").preferred == .graphQLResponseJSON)
    }

    @Test func exactMatchBeatsWildcardAtEqualQuality() {
        #expect(AcceptHeader("*/*, application/graphql-response+json").preferred == .graphQLResponseJSON)
    }

    @Test func firstListedExactTypeWinsATie() {
        #expect(AcceptHeader("application/json, application/graphql-response+json").preferred == .json)
        #expect(AcceptHeader("application/graphql-response+json, application/json").preferred == .graphQLResponseJSON)
    }

    @Test func qualityZeroExcludesAType() {
        #expect(AcceptHeader("*/*, application/json;q=0").preferred == .graphQLResponseJSON)
        #expect(AcceptHeader("application/json;q=0").preferred == nil)
    }

    @Test func aLookAlikeOfACommonValueIsParsedNotMatched() {
        // U+037E is canonically equivalent to ";" but is not a parameter separator.
        #expect(AcceptHeader("application/graphql-response+json, application/json\u{37E}q=0.9").accepts(.json) == false)
    }

    @Test func otherCharsetsAndTypesAreNotAcceptable() {
        #expect(AcceptHeader("application/json; charset=iso-8859-1").preferred == nil)
        #expect(AcceptHeader("text/html, application/xml").preferred == nil)
        #expect(AcceptHeader("application/json; charset=UTF-8").preferred == .json)
    }
}

struct RequestParsingTests {
    @Test func postReadsEveryParameterAndIgnoresUnknownOnes() throws {
        let request = try GraphQLRequest(post: Requests.post(
            #"{"query":"{ a }","operationName":"A","variables":{"x":1},"extensions":{"e":true},"other":[1]}"#))
        #expect(request == GraphQLRequest(query: "{ a }", operationName: "A", variables: ["x": 1], extensions: ["e": true]))
    }

    @Test func postTreatsNullAsAbsent() throws {
        let request = try GraphQLRequest(post: Requests.post(
            #"{"query":"{ a }","operationName":null,"variables":null,"extensions":null}"#))
        #expect(request == GraphQLRequest(query: "{ a }"))
    }

    @Test(arguments: [
        ("", "A POST request must have a JSON body."),
        (#"{ "not a JSON"#, nil),
        ("[1]", "The body must be a JSON object."),
        (#"{"qeury":"{ a }"}"#, #"The "query" parameter is required."#),
        (#"{"query":1}"#, #"The "query" parameter must be a string."#),
        (#"{"query":"{ a }","operationName":false}"#, #"The "operationName" parameter must be a string."#),
        (#"{"query":"{ a }","variables":"x"}"#, #"The "variables" parameter must be an object."#),
        (#"{"query":"{ a }","variables":[7]}"#, #"The "variables" parameter must be an object."#),
        (#"{"query":"{ a }","extensions":0}"#, #"The "extensions" parameter must be an object."#),
    ] as [(String, String?)])
    func malformedPostBodiesAreRejectedWith400(body: String, message: String?) {
        #expect(throws: RequestRejection.self) { try GraphQLRequest(post: Requests.post(body)) }
        do {
            _ = try GraphQLRequest(post: Requests.post(body))
        } catch {
            #expect(error.status == .badRequest)
            if let message { #expect(error.message == message) }
        }
    }

    @Test(arguments: [
        nil, "text/plain", "application/graphql", "application/json; charset=latin1", "application/jsonx",
        "; application/json", "application/json; CHARSET=\"Latin1\"", "application/json; foo=\"x\"; charset=latin1",
    ] as [String?])
    func otherContentTypesAreRejectedWith415(contentType: String?) {
        do {
            _ = try GraphQLRequest(post: Requests.post(#"{"query":"{ a }"}"#, contentType: contentType))
            Issue.record("accepted \(contentType ?? "no content type")")
        } catch {
            #expect(error.status == .unsupportedMediaType)
        }
    }

    @Test(arguments: [
        "application/json; charset=UTF-8", " Application/JSON ;charset=\"utf8\"", "application/json;",
        "application/json; foo=\"a;charset=latin1\"",
    ])
    func jsonInAnyCaseWithAUTF8CharsetIsAccepted(contentType: String) throws {
        let request = try GraphQLRequest(post: Requests.post(#"{"query":"{ a }"}"#, contentType: contentType))
        #expect(request.query == "{ a }")
    }

    @Test func getPercentDecodesTheQueryString() throws {
        let request = try GraphQLRequest(get: Requests.get(
            "query=query%20Q(%24n%3A%20Int)%20%7B%20a%20%7D&operationName=Q&variables=%7B%22n%22%3A2%7D&extensions=%7B%7D&x=y"))
        #expect(request == GraphQLRequest(query: "query Q($n: Int) { a }", operationName: "Q", variables: ["n": 2]))
    }

    @Test func getDecodesPlusAsSpaceAndKeepsUnicode() throws {
        let request = try GraphQLRequest(get: Requests.get("query=%7B+a(s%3A+%22%C3%A9%22)+%7D"))
        #expect(request.query == #"{ a(s: "é") }"#)
    }

    @Test(arguments: [
        "query=%7", "query=%ZZ", "query=%FF", "query=a&query=b", "operationName=A",
        "query=%7Ba%7D&variables=%5B1%5D", "query=%7Ba%7D&variables=nope", "query=%7Ba%7D&extensions=1",
    ])
    func malformedGetRequestsAreRejected(query: String) {
        #expect(throws: RequestRejection.self) { try GraphQLRequest(get: Requests.get(query)) }
    }
}

struct StatusCodeTests {
    let handler: GraphQLHTTPHandler

    init() throws {
        handler = try TestSchema.handler()
    }

    @Test func executedQueriesAre200InBothMediaTypes() async throws {
        for accept in ["application/json", "application/graphql-response+json"] {
            let response = await handler.respond(to: Requests.post(#"{"query":"{ hello }"}"#, accept: accept))
            #expect(response.status == .ok)
            #expect(response.headers["Content-Type"] == (accept + "; charset=utf-8"))
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"data":{"hello":"Hello, world"}}"#)
        }
    }

    @Test func asynchronousResolversAreAwaited() async throws {
        let response = await handler.respond(to: Requests.post(#"{"query":"{ slow hello }"}"#))
        #expect(try Requests.json(response) == ["data": ["slow": "done", "hello": "Hello, world"]])
    }

    @Test func requestErrorsAre200WithApplicationJSON() async throws {
        for body in [#"{"query":"{"}"#, #"{"query":"{ nope }"}"#, #"{"query":"query A { hello } query B { hello }"}"#,
                     #"{"query":"query($n: Int!) { numbers(first: $n) }","variables":{"n":"x"}}"#] {
            let response = await handler.respond(to: Requests.post(body, accept: "application/json"))
            #expect(response.status == .ok, "\(body)")
            #expect(try Requests.json(response)["data"] == nil)
        }
    }

    @Test func requestErrorsAre400WithGraphQLResponseJSON() async throws {
        let cases = [
            (#"{"query":"{"}"#, ErrorCode.parseFailed),
            (#"{"query":"{ nope }"}"#, ErrorCode.validationFailed),
            (#"{"query":"query A { hello } query B { hello }"}"#, ErrorCode.badRequest),
            (#"{"query":"query($n: Int!) { numbers(first: $n) }","variables":{"n":"x"}}"#, ErrorCode.badUserInput),
        ]
        for (body, code) in cases {
            let response = await handler.respond(to: Requests.post(body, accept: "application/graphql-response+json"))
            #expect(response.status == .badRequest, "\(body)")
            #expect(try Requests.firstCode(response) == code)
            #expect(try Requests.json(response)["data"] == nil)
        }
    }

    @Test func malformedRequestsAre400EvenWithApplicationJSON() async throws {
        let response = await handler.respond(to: Requests.post(#"{"qeury":"{ hello }"}"#, accept: "application/json"))
        #expect(response.status == .badRequest)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(try Requests.firstCode(response) == ErrorCode.badRequest)
    }

    @Test func unacceptableAcceptIs406() async throws {
        let response = await handler.respond(to: Requests.post(#"{"query":"{ hello }"}"#, accept: "text/html"))
        #expect(response.status.code == 406)
    }

    @Test func mutationsOverGetAre405WithAllowPost() async throws {
        let response = await handler.respond(to: Requests.get("query=mutation%7Bbump%7D"))
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "POST")
        let posted = await handler.respond(to: Requests.post(#"{"query":"mutation { bump }"}"#))
        #expect(try Requests.json(posted) == ["data": ["bump": 1]])
    }

    @Test func queriesOverGetExecute() async throws {
        let response = await handler.respond(to: Requests.get("query=%7Bhello(name%3A%22GET%22)%7D"))
        #expect(response.status == .ok)
        #expect(try Requests.json(response) == ["data": ["hello": "Hello, GET"]])
    }

    @Test func subscriptionsAreRefusedOverHTTP() async throws {
        let response = await handler.respond(to: Requests.post(#"{"query":"subscription { ticks }"}"#))
        #expect(response.status == .badRequest)
        #expect(try Requests.firstCode(response) == ErrorCode.badRequest)
    }
}
