import GraphQL
import Net

/// A remote GraphQL endpoint the developer tools talk to with GraphQL over HTTP: `POST` of
/// `{"query", "operationName", "variables"}` as JSON, answered with
/// `application/graphql-response+json` or `application/json`.
struct GraphQLEndpoint: Sendable {
    /// Where requests go.
    let url: HTTPURL
    /// Sent as `Authorization: Bearer TOKEN` when set.
    let token: String?
    /// The HTTP client, with its timeout.
    let client: HTTPClient

    /// The options every developer command shares, with their environment variables.
    static let options: [OptionSpec] = [
        .value("--url", "URL", environment: "HEARTH_URL", help: "The GraphQL endpoint, e.g. http://127.0.0.1:8080/graphql."),
        .value("--token", "TOKEN", environment: "HEARTH_TOKEN", help: "A bearer token sent in the Authorization header."),
        .value("--timeout", "DURATION", default: "30s", help: "How long to wait for the server."),
    ]

    /// Creates an endpoint.
    init(url: HTTPURL, token: String?, client: HTTPClient = HTTPClient()) {
        self.url = url
        self.token = token
        self.client = client
    }

    /// The endpoint the `--url`, `--token` and `--timeout` options (or `HEARTH_URL`,
    /// `HEARTH_TOKEN`) describe.
    /// - Throws: `UsageError` when there is no URL or it or the timeout is invalid.
    init(_ options: ParsedOptions) throws {
        guard let text = options.string("--url") else {
            throw UsageError(message: "no endpoint: pass --url URL or set HEARTH_URL")
        }
        let timeout = try options.duration("--timeout", in: .milliseconds(1)...(.seconds(3600))) ?? .seconds(30)
        let url: HTTPURL
        do {
            url = try HTTPURL(text)
        } catch {
            throw UsageError(message: error.description)
        }
        self.init(url: url, token: options.string("--token").flatMap { $0.isEmpty ? nil : $0 },
                  client: HTTPClient(configuration: HTTPClient.Configuration(timeout: timeout)))
    }

    /// Sends one GraphQL request.
    /// - Parameters:
    ///   - variables: A JSON object, or nil to send none.
    /// - Throws: `NetworkError` when no HTTP response arrives.
    func execute(_ document: String, operationName: String? = nil, variables: JSON? = nil) throws(NetworkError) -> GraphQLResponse {
        var request = OrderedMap<String, JSON>()
        request["query"] = .string(document)
        if let operationName { request["operationName"] = .string(operationName) }
        if let variables { request["variables"] = variables }
        var headers = [
            ("Content-Type", "application/json"),
            ("Accept", "application/graphql-response+json, application/json"),
        ]
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        let response = try client.post(url, headers: headers, body: JSON.object(request).serialized())
        return GraphQLResponse(status: response.status, body: response.body)
    }
}

/// What a GraphQL endpoint answered: the HTTP status and the body, parsed as JSON when it is.
struct GraphQLResponse: Sendable {
    /// The HTTP status code.
    let status: Int
    /// The body as received.
    let body: [UInt8]
    /// The body as JSON, or nil when it is not JSON.
    let json: JSON?

    /// Wraps a response.
    init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
        json = try? JSON(parsing: body)
    }

    /// Whether the exchange succeeded: a 2xx status and a JSON body without `errors`.
    var isSuccess: Bool {
        guard (200..<300).contains(status), let json, case .object = json else { return false }
        if let errors = json["errors"], errors != .null { return false }
        return true
    }

    /// The `data` of the result, when present and not null.
    var data: JSON? {
        guard let data = json?["data"], data != .null else { return nil }
        return data
    }

    /// The body for people: JSON pretty-printed with two-space indentation and the server's
    /// key order, anything else as text; ends with a newline.
    var printable: String {
        let text = json.map { String(decoding: $0.serialized(pretty: true), as: UTF8.self) }
            ?? String(decoding: body, as: UTF8.self)
        return text.hasSuffix("\n") ? text : text + "\n"
    }

    /// A one-line summary of a failure for stderr: the HTTP status when it is not 2xx, or the
    /// first error message.
    var failureSummary: String {
        if !(200..<300).contains(status) { return "the server answered HTTP \(status)" }
        if case .array(let errors)? = json?["errors"], case .string(let message)? = errors.first?["message"] {
            return errors.count == 1 ? message : "\(message) (and \(errors.count - 1) more errors)"
        }
        return "the response is not a GraphQL result"
    }
}
