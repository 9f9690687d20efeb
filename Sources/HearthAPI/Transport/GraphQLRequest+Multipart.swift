import GraphQL
import HearthHTTP

extension GraphQLRequest {
    /// The headers of which one must be present and non-empty on a multipart request: browsers
    /// send `multipart/form-data` cross-site without a CORS preflight, and a custom header forces
    /// one (Apollo Server's CSRF prevention, same names).
    public static let preflightHeaders = ["X-Apollo-Operation-Name", "Apollo-Require-Preflight"]

    /// Whether `contentType` is `multipart/form-data` (any case, any parameters).
    public static func isMultipart(contentType: String?) -> Bool {
        guard let contentType else { return false }
        return MediaType.essence(of: contentType, is: "multipart/form-data")
    }

    /// Reads a GraphQL multipart request (graphql-multipart-request-spec): the parts `operations`
    /// (the request JSON, `null` where files go), `map` (`{"<part name>": ["variables.<path>", …]}`)
    /// and the files, each named by a key of the map. Each mapped place in the variables receives
    /// the file's part name, which the `Upload` scalar carries to resolvers.
    ///
    /// Batched operations (an `operations` array) are refused: Hearth does not batch over HTTP.
    /// - Returns: The request and its files by part name.
    /// - Throws: `RequestRejection` (400) for a request without a preflight header, a malformed
    ///   body, parts out of order, an unreadable `operations` or `map`, a file the map does not
    ///   name, a map entry without its file, or a path that does not lead to a `null` in the
    ///   variables.
    public static func multipart(_ request: HTTPRequest, limits: MultipartLimits) throws(RequestRejection) -> (GraphQLRequest, [String: UploadedFile]) {
        guard preflightHeaders.contains(where: { !(request.headers[$0]?.trimmingSpaces().isEmpty ?? true) }) else {
            throw RequestRejection(message: """
                This operation has been blocked as a potential Cross-Site Request Forgery (CSRF): a multipart request must \
                carry a non-empty Apollo-Require-Preflight or X-Apollo-Operation-Name header.
                """)
        }
        let parts: [MultipartPart]
        do {
            parts = try MultipartPart.parts(of: request.body, contentType: request.headers["Content-Type"] ?? "", limits: limits)
        } catch {
            throw RequestRejection(message: error.message)
        }
        guard parts.count >= 2, parts[0].head.name == "operations", parts[1].head.name == "map" else {
            throw RequestRejection(message: "A multipart request begins with the parts \"operations\" and then \"map\".")
        }
        if parts[0].body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "[") {
            throw RequestRejection(message: "Batched operations are not supported; send one operation per request.")
        }
        var graphQLRequest = try GraphQLRequest(json: parts[0].body)
        let map = try fileMap(parts[1].body)
        let mappedNames = Set(map.map(\.0))
        var files: [String: UploadedFile] = [:]
        for part in parts.dropFirst(2) {
            guard let name = part.head.name, mappedNames.contains(name) else {
                throw RequestRejection(message: "The file part \"\(part.head.name ?? "")\" is not in the map.")
            }
            guard files[name] == nil else { throw RequestRejection(message: "The file part \"\(name)\" is sent twice.") }
            files[name] = UploadedFile(name: name, filename: part.head.filename, contentType: part.head.contentType, bytes: part.body)
        }
        for (name, paths) in map {
            guard files[name] != nil else { throw RequestRejection(message: "The map names the file \"\(name)\", which is not sent.") }
            for path in paths {
                graphQLRequest.variables = try placing(name, at: path, in: graphQLRequest.variables)
            }
        }
        return (graphQLRequest, files)
    }

    /// The `map` part: a JSON object whose values are arrays of operations paths.
    private static func fileMap(_ bytes: [UInt8]) throws(RequestRejection) -> [(String, [String])] {
        let rejection = RequestRejection(message: "The \"map\" part must be a JSON object whose values are arrays of operations paths.")
        guard case .object(let members)? = try? JSON(parsing: bytes) else { throw rejection }
        var map: [(String, [String])] = []
        for (name, value) in members {
            guard case .array(let items) = value, !items.isEmpty else { throw rejection }
            var paths: [String] = []
            for item in items {
                guard case .string(let path) = item else { throw rejection }
                paths.append(path)
            }
            map.append((name, paths))
        }
        return map
    }

    /// `variables` with the `null` at `path` (`variables.input.avatar`, array indices as numbers)
    /// replaced by the file's name.
    private static func placing(_ name: String, at path: String, in variables: [String: JSON]) throws(RequestRejection) -> [String: JSON] {
        let segments = path.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count >= 2, segments[0] == "variables", let current = variables[String(segments[1])],
              let replaced = replacing(segments.dropFirst(2), in: current, with: .string(name))
        else {
            throw RequestRejection(message: "The map path \"\(path)\" does not lead to a null in the operation's variables.")
        }
        var variables = variables
        variables[String(segments[1])] = replaced
        return variables
    }

    private static func replacing(_ path: ArraySlice<Substring>, in value: JSON, with replacement: JSON) -> JSON? {
        guard let segment = path.first else {
            // Spelled out: `value == .null ? replacement : nil` would read `nil` as JSON's own null.
            guard value == .null else { return Optional<JSON>.none }
            return replacement
        }
        switch value {
        case .object(var members):
            guard let member = members[String(segment)], let replaced = replacing(path.dropFirst(), in: member, with: replacement) else { return nil }
            members[String(segment)] = replaced
            return .object(members)
        case .array(var items):
            guard let index = Int(segment), items.indices.contains(index),
                  let replaced = replacing(path.dropFirst(), in: items[index], with: replacement)
            else { return nil }
            items[index] = replaced
            return .array(items)
        default:
            return nil
        }
    }
}
