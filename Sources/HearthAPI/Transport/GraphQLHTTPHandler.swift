import GraphQL
import HearthHTTP

/// Serves GraphQL over HTTP, following the graphql/graphql-over-http draft.
///
/// - `POST` with `Content-Type: application/json` (UTF-8; another charset or type is 415) and
///   a JSON object body; `GET` (and `HEAD`) with `query`, `operationName`, and JSON-encoded
///   `variables` and `extensions` in the query string. Mutations over `GET` are refused with
///   405 and `Allow: POST`. Unknown parameters are ignored; `null` counts as absent.
/// - The response media type follows `Accept` (q-values, `application/*`, `*/*`):
///   `application/graphql-response+json` or `application/json`, always with
///   `; charset=utf-8`; neither acceptable is 406. A missing `Accept` means
///   `application/graphql-response+json` (the draft since its 2025 watershed).
/// - Status codes follow the draft. A request that is not well-formed (unreadable JSON, a
///   non-object body, a missing or non-string `query`, non-object `variables` or
///   `extensions`) is 400 in both media types, as the draft recommends; the graphql-http
///   audit's SHOULDs D477, F5AF, 3715, 9FE*, FB9*, F05* and 368* ask for 200 with
///   `application/json` there, and we follow the draft instead (every MUST of the audit
///   passes). With `application/json`, every well-formed request is 200 (parse and
///   validation errors included). With `application/graphql-response+json`, parse errors,
///   validation errors (400, the draft's current text, rather than the 422 once discussed),
///   an operation that cannot be chosen and variable coercion errors are 400; executed
///   operations are 200, with or without field errors.
/// - Automatic Persisted Queries answer `PERSISTED_QUERY_NOT_FOUND` (and
///   `PERSISTED_QUERY_NOT_SUPPORTED`) with 200 and `application/json` whenever the client
///   accepts it, as Apollo Server does and Apollo's persisted-query link expects; a client
///   accepting only `application/graphql-response+json` gets 400.
///
/// - With ``uploadLimits`` set, a `POST` may also be a GraphQL multipart request
///   (graphql-multipart-request-spec, see ``GraphQLRequest/multipart(_:limits:)``): it must
///   carry a non-empty `Apollo-Require-Preflight` or `X-Apollo-Operation-Name` header (CSRF
///   prevention as in Apollo Server), and its files reach resolvers through `makeContext`.
///
/// When every resolver answers synchronously, the response is sent inline on the event
/// loop; otherwise the handler completes through the responder when the last resolver does.
public final class GraphQLHTTPHandler: Sendable {
    /// The pipeline requests run through.
    public let service: GraphQLService
    /// The limits of multipart requests, or nil when they are refused (415).
    public let uploadLimits: MultipartLimits?
    private let makeContext: @Sendable (HTTPRequest, [String: UploadedFile]) async -> any Sendable
    private let rootValue: @Sendable () -> Any

    /// Creates the handler.
    /// - Parameters:
    ///   - uploadLimits: The limits of multipart requests (parts, part headers, part size); nil
    ///     refuses them.
    ///   - makeContext: The per-request value resolvers receive as `context` (the caller's
    ///     authentication, the uploaded files by part name, per-request `DataLoader`s); by
    ///     default the `HTTPRequest` itself. It may suspend (a session lookup); when it does not,
    ///     the request still completes inline.
    ///   - rootValue: The parent value of root fields.
    public init(
        service: GraphQLService,
        uploadLimits: MultipartLimits? = nil,
        makeContext: @escaping @Sendable (HTTPRequest, [String: UploadedFile]) async -> any Sendable = { request, _ in request },
        rootValue: @escaping @Sendable () -> Any = { () }
    ) {
        self.service = service
        self.uploadLimits = uploadLimits
        self.makeContext = makeContext
        self.rootValue = rootValue
    }

    /// Routes `GET` (and `HEAD`) and `POST` requests for `path` to this handler.
    public func register(in router: inout Router, path: String = "/graphql") {
        router.get(path) { [self] request, responder in handle(request, responder) }
        router.post(path) { [self] request, responder in handle(request, responder) }
    }

    /// Answers `request` through `responder`: inline when execution never suspends, later
    /// otherwise. Runs on the event loop until the first resolver that waits.
    public func handle(_ request: HTTPRequest, _ responder: HTTPResponder) {
        Task.immediate { [self] in
            responder.send(await respond(to: request))
        }
    }

    /// The response to `request`.
    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        let accept = AcceptHeader(request.headers["Accept"])
        guard let mediaType = accept.preferred else {
            return Self.response(
                status: HTTPStatus(code: 406), mediaType: .json,
                result: Self.errorResult(
                    "None of the accepted media types is served; accept application/graphql-response+json or application/json.",
                    code: ErrorCode.badRequest))
        }
        let graphQLRequest: GraphQLRequest
        var files: [String: UploadedFile] = [:]
        do throws(RequestRejection) {
            if request.method == .post, let uploadLimits, GraphQLRequest.isMultipart(contentType: request.headers["Content-Type"]) {
                (graphQLRequest, files) = try GraphQLRequest.multipart(request, limits: uploadLimits)
            } else {
                graphQLRequest = request.method == .post ? try GraphQLRequest(post: request) : try GraphQLRequest(get: request)
            }
        } catch {
            return Self.response(for: error, mediaType: mediaType)
        }
        let outcome = await service.execute(
            graphQLRequest, allowsMutations: request.method == .post, requestID: request.id,
            context: await makeContext(request, files), rootValue: rootValue())
        switch outcome.status {
        case .executed:
            return Self.response(status: .ok, mediaType: mediaType, result: outcome.result)
        case .rejected(let rejection):
            var response = Self.response(status: rejection.status, mediaType: mediaType, result: outcome.result)
            for (name, value) in rejection.headers { response.headers.replaceOrAdd(name: name, value: value) }
            return response
        case .requestError(let kind):
            if mediaType == .json { return Self.response(status: .ok, mediaType: .json, result: outcome.result) }
            if kind == .persistedQueryNotFound || kind == .persistedQueryNotSupported, accept.accepts(.json) {
                return Self.response(status: .ok, mediaType: .json, result: outcome.result)
            }
            return Self.response(status: .badRequest, mediaType: mediaType, result: outcome.result)
        }
    }

    private static func response(for rejection: RequestRejection, mediaType: ResponseMediaType) -> HTTPResponse {
        var response = response(status: rejection.status, mediaType: mediaType, result: errorResult(rejection.message, code: rejection.code))
        for (name, value) in rejection.headers { response.headers.replaceOrAdd(name: name, value: value) }
        return response
    }

    private static func errorResult(_ message: String, code: String) -> ExecutionResult {
        ExecutionResult(data: nil, errors: [GraphQLError(message: message, extensions: ["code": .string(code)])])
    }

    /// The response carrying `result`; when that is one kept value framed (a kept list asked for
    /// alone), its body and compressed encoding are kept with the value and made once.
    private static func response(status: HTTPStatus, mediaType: ResponseMediaType, result: ExecutionResult) -> HTTPResponse {
        let headers: HTTPHeaders = ["Content-Type": mediaType.contentType]
        guard let framed = result.framedValue else { return HTTPResponse(status: status, headers: headers, body: result.serialized()) }
        return HTTPResponse(status: status, headers: headers, reusableBody: framed.value.derived(for: framed.framing) { ReusableBody(result.serialized()) })
    }
}
