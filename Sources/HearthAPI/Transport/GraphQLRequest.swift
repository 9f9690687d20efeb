import GraphQL
import HearthHTTP
import Support

/// The parameters of a GraphQL-over-HTTP request, from a JSON body (POST) or the query
/// string (GET). `null` members count as absent; unknown members are ignored.
public struct GraphQLRequest: Sendable, Equatable {
    /// The document text; absent for an Automatic Persisted Query sent by hash only.
    public var query: String?
    /// The operation to run, required when the document has several.
    public var operationName: String?
    /// The variable values, before coercion.
    public var variables: [String: JSON]
    /// The request's extensions (`persistedQuery` is understood, the rest ignored).
    public var extensions: [String: JSON]

    /// Creates a request.
    public init(query: String?, operationName: String? = nil, variables: [String: JSON] = [:], extensions: [String: JSON] = [:]) {
        self.query = query
        self.operationName = operationName
        self.variables = variables
        self.extensions = extensions
    }
}

/// Why an HTTP request is not a well-formed GraphQL-over-HTTP request; answered before any
/// GraphQL work with its status (the same for either response media type) and an error whose
/// `extensions.code` is `code`.
public struct RequestRejection: Error, Sendable, Equatable {
    /// The HTTP status: 400, 405 or 415.
    public var status: HTTPStatus
    /// The error's `extensions.code`.
    public var code: String
    /// What was wrong, for the client.
    public var message: String
    /// Extra headers such as `Allow`.
    public var headers: [String: String]

    /// Creates a rejection.
    public init(status: HTTPStatus = .badRequest, code: String = ErrorCode.badRequest, message: String, headers: [String: String] = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }
}

extension GraphQLRequest {
    /// Reads a POST request: `Content-Type: application/json` (with no charset, or UTF-8),
    /// whose body is a JSON object.
    /// - Throws: `RequestRejection` with 415 for another content type or charset, 400 for an
    ///   empty or malformed body or parameters of the wrong type.
    public init(post request: HTTPRequest) throws(RequestRejection) {
        guard let contentType = request.headers["Content-Type"] else {
            throw RequestRejection(
                status: .unsupportedMediaType,
                message: "A POST request must have Content-Type: application/json.")
        }
        try Self.checkJSONContentType(contentType)
        guard !request.body.isEmpty else {
            throw RequestRejection(message: "A POST request must have a JSON body.")
        }
        try self.init(json: request.body)
    }

    /// Accepts `application/json` with no charset or UTF-8, in any letter case.
    private static func checkJSONContentType(_ contentType: String) throws(RequestRejection) {
        // What nearly every client sends, checked without splitting the header.
        if contentType.utf8.elementsEqual("application/json".utf8) || contentType.utf8.elementsEqual("application/json; charset=utf-8".utf8) {
            return
        }
        guard MediaType.essence(of: contentType, is: "application/json") else {
            throw RequestRejection(
                status: .unsupportedMediaType,
                message: "Unsupported Content-Type \"\(contentType)\"; send application/json.")
        }
        if let charset = MediaType.parameter("charset", in: contentType), !["utf-8", "utf8"].contains(charset.lowercased()) {
            throw RequestRejection(status: .unsupportedMediaType, message: "Unsupported charset \"\(charset)\"; send UTF-8.")
        }
    }

    /// Reads the parameters from a JSON object: a POST body, or the `payload` of a
    /// graphql-transport-ws `subscribe` message.
    /// - Throws: `RequestRejection` (400) for invalid JSON, a value that is not an object, or
    ///   parameters of the wrong type.
    public init(json bytes: [UInt8]) throws(RequestRejection) {
        let body: JSON
        do {
            body = try JSON(parsing: bytes)
        } catch {
            throw RequestRejection(message: "The body is not valid JSON: \(error.description).")
        }
        guard case .object(let members) = body else {
            throw RequestRejection(message: "The body must be a JSON object.")
        }
        var query: String?
        switch members["query"] ?? .null {
        case .null: query = nil
        case .string(let text): query = text
        default: throw RequestRejection(message: "The \"query\" parameter must be a string.")
        }
        var operationName: String?
        switch members["operationName"] ?? .null {
        case .null: operationName = nil
        case .string(let name): operationName = name
        default: throw RequestRejection(message: "The \"operationName\" parameter must be a string.")
        }
        self.init(
            query: query, operationName: operationName,
            variables: try Self.map(members["variables"], named: "variables"),
            extensions: try Self.map(members["extensions"], named: "extensions"))
        try requireQueryOrPersistedQuery()
    }

    /// Reads a GET request's query string (`application/x-www-form-urlencoded`): `query`,
    /// `operationName`, and `variables` and `extensions` as JSON text.
    /// - Throws: `RequestRejection` (400) for bad percent-encoding, a repeated parameter,
    ///   JSON that does not parse or is not an object, or a missing `query`.
    public init(get request: HTTPRequest) throws(RequestRejection) {
        let parameters: [String: String]
        do {
            parameters = try FormDecoding.parameters(request.query ?? "")
        } catch {
            switch error {
            case .malformed: throw RequestRejection(message: "The query string is not valid percent-encoded UTF-8.")
            case .repeated(let name): throw RequestRejection(message: "The \"\(name)\" parameter is given more than once.")
            }
        }
        self.init(
            query: parameters["query"], operationName: parameters["operationName"],
            variables: try Self.map(jsonText: parameters["variables"], named: "variables"),
            extensions: try Self.map(jsonText: parameters["extensions"], named: "extensions"))
        try requireQueryOrPersistedQuery()
    }

    private func requireQueryOrPersistedQuery() throws(RequestRejection) {
        if query == nil, extensions["persistedQuery"] == nil {
            throw RequestRejection(message: "The \"query\" parameter is required.")
        }
    }

    private static func map(_ value: JSON?, named name: String) throws(RequestRejection) -> [String: JSON] {
        switch value ?? .null {
        case .null: return [:]
        case .object(let members):
            var map: [String: JSON] = [:]
            map.reserveCapacity(members.count)
            for (key, value) in members { map[key] = value }
            return map
        default: throw RequestRejection(message: "The \"\(name)\" parameter must be an object.")
        }
    }

    private static func map(jsonText: String?, named name: String) throws(RequestRejection) -> [String: JSON] {
        guard let jsonText else { return [:] }
        do {
            return try map(try JSON(parsing: jsonText), named: name)
        } catch let rejection as RequestRejection {
            throw rejection
        } catch {
            throw RequestRejection(message: "The \"\(name)\" parameter is not valid JSON.")
        }
    }
}
