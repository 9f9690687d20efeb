import GraphQL
import HearthDomain
import HearthHTTP
import HearthServices
import Support
import Synchronization

/// The HTTP side of "your data, in and out" (README, "Exporting your habits" and "Importing from
/// Loop Habit Tracker"), with `Authorization: Bearer <accessToken>` as on `/graphql`:
///
/// - `GET /export/habits.json`, `/export/habits.csv`, `/export/habit-events.csv`,
///   `/export/follows.csv`, `/export/habits.zip`: everything of the signed-in user's habits,
///   events and follows (``HabitExportFormat``), streamed with chunked transfer coding as the rows
///   are read, with `Content-Disposition: attachment` and `Cache-Control: no-store`. Should the
///   read fail after the head was sent, the connection closes without the last chunk, so the
///   download is seen as broken, never as whole.
/// - `POST /import/loop` with a Loop Habit Tracker "Export as CSV" zip as the body
///   (`application/zip` or `application/octet-stream`): 200 with the import's report as JSON
///   (the fields of `LoopImportResult` in schema.graphql).
///
/// Refusals carry `{"errors": [...]}` with `extensions.code` (``ServiceError/httpRefusal``): 401
/// signed out, 415 another `Content-Type`, 413 too large, 400 not a Loop export.
public struct HabitPortingRoutes: Sendable {
    /// Streams exports.
    public let exporter: HabitExporter
    /// Imports Loop archives.
    public let importer: LoopImporter
    /// Checks bearer tokens, as `/graphql` does.
    public let authenticator: Authenticator

    /// The `Content-Type` values an import may declare.
    public static let importMediaTypes: Set<String> = ["application/zip", "application/x-zip-compressed", "application/octet-stream"]
    /// The path of imports, for its body-limit rule.
    public static let importPath = "/import/loop"

    /// Creates the routes.
    public init(exporter: HabitExporter, importer: LoopImporter, authenticator: Authenticator) {
        self.exporter = exporter
        self.importer = importer
        self.authenticator = authenticator
    }

    /// Registers `GET /export/<file>` for every format and `POST /import/loop`.
    public func register(in router: inout Router) {
        for format in HabitExportFormat.allCases {
            router.get("/export/\(format.fileName)") { [self] request, responder in
                Task { await export(format, request: request, responder: responder) }
            }
        }
        router.on(.post, Self.importPath) { [self] request in try await importLoop(request) }
    }

    /// Answers one export: the refusal, or the head with the first chunk and the body as it is
    /// read. The head waits for the first chunk so that a failure before it (the export workers
    /// all busy: 503 `UNAVAILABLE`; the database: 500) is still an ordinary error response.
    func export(_ format: HabitExportFormat, request: HTTPRequest, responder: HTTPResponder) async {
        let viewer: Viewer
        switch await authenticator.viewer(of: request) {
        case .success(let signedIn): viewer = signedIn
        case .failure(let refused): return responder.send(refused.response)
        }
        let head = HTTPResponse(headers: [
            "Content-Type": format.mediaType, "Content-Disposition": "attachment; filename=\"\(format.fileName)\"",
            "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
        ])
        if request.method == .head { return responder.sendHead(head).finish() }
        let body = Mutex<HTTPResponseBodyWriter?>(nil)
        do {
            try await exporter.export(format, of: viewer) { chunk in
                let writer = body.withLock { writer in
                    if writer == nil { writer = responder.sendHead(head) }
                    return writer!
                }
                return writer.writeWaiting(chunk)
            }
            body.withLock { $0 }?.finish()
        } catch {
            if let writer = body.withLock({ $0 }) {
                writer.abort()
            } else if error is WorkerPoolError {
                responder.send(ServiceError(.unavailable, "The server is busy with other exports; try again in a minute.").httpRefusal)
            } else {
                responder.fail(error, request: request)
            }
        }
    }

    /// The response to `POST /import/loop`.
    /// - Throws: an unexpected failure storing the import (the router answers 500 and logs it).
    func importLoop(_ request: HTTPRequest) async throws -> HTTPResponse {
        let viewer: Viewer
        switch await authenticator.viewer(of: request) {
        case .success(let signedIn): viewer = signedIn
        case .failure(let refused): return refused.response
        }
        guard let declared = request.declaredMediaType, Self.importMediaTypes.contains(declared) else {
            let message = "Send the archive as application/zip."
            return ServiceError(.badUserInput, message, problems: [FieldProblem(field: "body", reason: .unsupportedFormat, message: message)])
                .httpRefusal
        }
        do {
            let report = try await importer.importArchive(request.body, for: viewer, clientMutationID: nil, field: "body")
            return HTTPResponse(
                status: .ok, headers: ["Content-Type": "application/json; charset=utf-8"], body: LoopImportValue.json(report).serialized())
        } catch let error as ServiceError {
            return error.httpRefusal
        }
    }
}
