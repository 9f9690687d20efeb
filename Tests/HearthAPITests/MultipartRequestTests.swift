import GraphQL
import HearthAPI
import HearthHTTP
import Testing

/// Reading GraphQL multipart requests (graphql-multipart-request-spec) into a request and its files.
struct MultipartRequestTests {
    static let boundary = "xYzZY"
    static let limits = MultipartLimits(maxParts: 4, maxHeaderBytes: 1024, maxPartBytes: 256)
    static let operations = #"{"query":"mutation($f: Upload) { a(f: $f) }","variables":{"f":null,"list":[1,null]}}"#

    private static func request(
        parts: [(name: String, filename: String?, content: String)], preflight: Bool = true
    ) -> HTTPRequest {
        var body = ""
        for part in parts {
            let filename = part.filename.map { "; filename=\"\($0)\"" } ?? ""
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"\(filename)\r\n\r\n\(part.content)\r\n"
        }
        body += "--\(boundary)--\r\n"
        var headers: HTTPHeaders = ["Host": "h", "Content-Type": "multipart/form-data; boundary=\(boundary)"]
        if preflight { headers.add(name: "Apollo-Require-Preflight", value: "true") }
        return HTTPRequest(head: HTTPRequestHead(method: .post, target: "/graphql", headers: headers), body: Array(body.utf8))
    }

    private static func rejection(_ request: HTTPRequest) -> String? {
        do {
            _ = try GraphQLRequest.multipart(request, limits: limits)
            return nil
        } catch {
            #expect(error.status.code == 400)
            return error.message
        }
    }

    @Test func placesEachFilesNameWhereTheMapSaysAndHandsOverTheFiles() throws {
        let (request, files) = try GraphQLRequest.multipart(Self.request(parts: [
            ("operations", nil, Self.operations), ("map", nil, #"{"0": ["variables.f"], "1": ["variables.list.1"]}"#),
            ("0", "a.png", "PNG bytes"), ("1", "b.png", "more"),
        ]), limits: Self.limits)
        #expect(request.query == "mutation($f: Upload) { a(f: $f) }")
        #expect(request.variables["f"] == "0")
        #expect(request.variables["list"] == [1, "1"])
        #expect(files["0"] == UploadedFile(name: "0", filename: "a.png", bytes: Array("PNG bytes".utf8)))
        #expect(files["1"]?.bytes == Array("more".utf8))
    }

    @Test func refusesARequestWithoutAPreflightHeader() {
        let request = Self.request(parts: [("operations", nil, Self.operations), ("map", nil, "{}")], preflight: false)
        #expect(Self.rejection(request)?.contains("Cross-Site Request Forgery") == true)
    }

    @Test func refusesAMissingMap() {
        #expect(Self.rejection(Self.request(parts: [("operations", nil, Self.operations), ("0", "a.png", "x")])) != nil)
        #expect(Self.rejection(Self.request(parts: [("operations", nil, Self.operations)])) != nil)
    }

    @Test func refusesUnreadableOperationsOrMap() {
        #expect(Self.rejection(Self.request(parts: [("operations", nil, "{not json"), ("map", nil, "{}")])) != nil)
        #expect(Self.rejection(Self.request(parts: [("operations", nil, Self.operations), ("map", nil, #"{"0": "variables.f"}"#)])) != nil)
        #expect(Self.rejection(Self.request(parts: [("operations", nil, Self.operations), ("map", nil, "[]")])) != nil)
        let batched = Self.rejection(Self.request(parts: [("operations", nil, "[\(Self.operations)]"), ("map", nil, "{}")]))
        #expect(batched?.contains("Batched") == true)
    }

    @Test func refusesAFileTheMapDoesNotNameAndAMapEntryWithoutItsFile() {
        let unmapped = Self.request(parts: [("operations", nil, Self.operations), ("map", nil, "{}"), ("0", "a.png", "x")])
        #expect(Self.rejection(unmapped)?.contains("not in the map") == true)
        let missing = Self.request(parts: [("operations", nil, Self.operations), ("map", nil, #"{"0": ["variables.f"]}"#)])
        #expect(Self.rejection(missing)?.contains("not sent") == true)
    }

    @Test(arguments: ["variables.g", "variables.list.0", "variables.list.5", "query", "variables.f.x", "variables"])
    func refusesAMapPathThatDoesNotLeadToANull(path: String) {
        let request = Self.request(parts: [("operations", nil, Self.operations), ("map", nil, #"{"0": ["\#(path)"]}"#), ("0", "a.png", "x")])
        #expect(Self.rejection(request)?.contains(path) == true)
    }

    @Test func refusesTooLargeOrTooManyParts() {
        let large = String(repeating: "x", count: 257)
        #expect(Self.rejection(Self.request(parts: [
            ("operations", nil, Self.operations), ("map", nil, #"{"0": ["variables.f"]}"#), ("0", "a.png", large),
        ])) == MultipartError(.partTooLarge).message)
        #expect(Self.rejection(Self.request(parts: [
            ("operations", nil, Self.operations), ("map", nil, "{}"), ("0", nil, ""), ("1", nil, ""), ("2", nil, ""),
        ])) == MultipartError(.tooManyParts).message)
    }
}
