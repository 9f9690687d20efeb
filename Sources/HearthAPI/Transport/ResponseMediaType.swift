/// The media types a GraphQL response can be sent as (GraphQL over HTTP, "Body").
public enum ResponseMediaType: Sendable, Hashable {
    /// `application/graphql-response+json`: status codes tell request errors (4xx) from
    /// executed operations (200).
    case graphQLResponseJSON
    /// `application/json`: the legacy type; every well-formed request is answered 200.
    case json

    /// The `Content-Type` header value, always with the UTF-8 charset.
    public var contentType: String {
        switch self {
        case .graphQLResponseJSON: "application/graphql-response+json; charset=utf-8"
        case .json: "application/json; charset=utf-8"
        }
    }

    /// The type without parameters, lowercase.
    var essence: String {
        switch self {
        case .graphQLResponseJSON: "application/graphql-response+json"
        case .json: "application/json"
        }
    }

    /// `essence` as UTF-8 bytes.
    var essenceBytes: [UInt8] {
        switch self {
        case .graphQLResponseJSON: Self.graphQLResponseJSONBytes
        case .json: Self.jsonBytes
        }
    }

    private static let graphQLResponseJSONBytes = Array("application/graphql-response+json".utf8)
    private static let jsonBytes = Array("application/json".utf8)
}

/// The client's `Accept` header (RFC 9110 §12.5.1) as far as GraphQL responses are concerned:
/// how much it wants each of the two response media types.
///
/// A media range matches by its most specific form (`application/json` before
/// `application/*` before `*/*`); `q=0` excludes a type; a range with a `charset` other than
/// UTF-8 does not match (we only write UTF-8). Without an `Accept` header the client is
/// treated as accepting `application/graphql-response+json`, as the GraphQL-over-HTTP draft
/// requires since its 2025 watershed (the older graphql-http audit 80D8 still expects
/// `application/json`; we follow the draft).
public struct AcceptHeader: Sendable {
    private struct Preference {
        var quality: Double
        /// 2 for an exact type, 1 for `type/*`, 0 for `*/*`.
        var specificity: Int
        /// Position of the range in the header, for ties between exact matches.
        var position: Int
    }

    private let graphQLResponse: Preference?
    private let json: Preference?

    /// Reads a header value; `nil` means the header is absent.
    ///
    /// The values clients send most often are parsed once and looked up by equality; others
    /// are parsed over their UTF-8 bytes without intermediate strings (every GraphQL request
    /// goes through here, and splitting into substrings cost a tenth of a `{ __typename }`
    /// request).
    public init(_ value: String?) {
        // Compared byte for byte: `String ==` is canonical equivalence, under which U+037E
        // (Greek question mark) equals `;`, and the byte parser would not read it as one.
        if let value, let common = Self.common.first(where: { $0.value.utf8.elementsEqual(value.utf8) }) {
            self = common.header
        } else {
            self.init(parsing: value)
        }
    }

    /// What graphql-http clients, Apollo, urql, curl and browsers send, parsed at first use.
    private static let common: [(value: String, header: AcceptHeader)] = [
        "application/graphql-response+json",
        "application/json",
        "application/graphql-response+json, application/json;q=0.9",
        "application/graphql-response+json,application/json;q=0.9",
        "application/json, application/graphql-response+json",
        "*/*",
    ].map { ($0, AcceptHeader(parsing: $0)) }

    private init(parsing value: String?) {
        var graphQLResponse: Preference?
        var json: Preference?
        var sawRange = false
        var utf8 = value.map { Array($0.utf8) } ?? []
        for index in utf8.indices where utf8[index] >= UInt8(ascii: "A") && utf8[index] <= UInt8(ascii: "Z") {
            utf8[index] += 32  // media types and parameter names are case-insensitive
        }
        var position = 0
        for element in utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            defer { position += 1 }
            var parts = element.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).makeIterator()
            guard let rangeBytes = parts.next().map(Self.trimmed), !rangeBytes.isEmpty else { continue }
            sawRange = true
            var quality = 1.0
            var charsetMatches = true
            while let parameter = parts.next() {
                let pair = parameter.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
                guard pair.count == 2 else { continue }
                var parameterValue = Self.trimmed(pair[1])
                if parameterValue.count >= 2, parameterValue.first == UInt8(ascii: "\""), parameterValue.last == UInt8(ascii: "\"") {
                    parameterValue = parameterValue.dropFirst().dropLast()
                }
                switch Array(Self.trimmed(pair[0])) {
                case Self.qName:
                    quality = Double(String(decoding: parameterValue, as: UTF8.self)).map { min(max($0, 0), 1) } ?? 0
                case Self.charsetName:
                    charsetMatches = parameterValue.elementsEqual("utf-8".utf8) || parameterValue.elementsEqual("utf8".utf8)
                default: break
                }
            }
            guard charsetMatches else { continue }
            let range = Array(rangeBytes)
            for type in [ResponseMediaType.graphQLResponseJSON, .json] {
                let specificity: Int
                switch range {
                case type.essenceBytes: specificity = 2
                case Self.applicationWildcard: specificity = 1
                case Self.anyWildcard: specificity = 0
                default: continue
                }
                let preference = Preference(quality: quality, specificity: specificity, position: position)
                if type == .graphQLResponseJSON {
                    graphQLResponse = Self.moreSpecific(graphQLResponse, preference)
                } else {
                    json = Self.moreSpecific(json, preference)
                }
            }
        }
        if !sawRange {
            // Absent or blank: the draft's default.
            graphQLResponse = Preference(quality: 1, specificity: 2, position: 0)
            json = nil
        }
        self.graphQLResponse = graphQLResponse
        self.json = json
    }

    private static let qName = Array("q".utf8)
    private static let charsetName = Array("charset".utf8)
    private static let applicationWildcard = Array("application/*".utf8)
    private static let anyWildcard = Array("*/*".utf8)

    /// `bytes` without leading and trailing spaces and tabs.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { slice = slice.dropFirst() }
        while let last = slice.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { slice = slice.dropLast() }
        return slice
    }

    private static func moreSpecific(_ current: Preference?, _ candidate: Preference) -> Preference {
        guard let current, current.specificity >= candidate.specificity else { return candidate }
        return current
    }

    /// Whether the client accepts `type` at all.
    public func accepts(_ type: ResponseMediaType) -> Bool {
        switch type {
        case .graphQLResponseJSON: (graphQLResponse?.quality ?? 0) > 0
        case .json: (json?.quality ?? 0) > 0
        }
    }

    /// The type to respond with: the higher quality; on a tie the one named exactly, then the
    /// one named first; when only wildcards match, `application/json` (what clients sending
    /// `*/*` have always received). `nil` when the client accepts neither (406).
    public var preferred: ResponseMediaType? {
        let accepted = (graphQLResponse: accepts(.graphQLResponseJSON), json: accepts(.json))
        switch accepted {
        case (false, false): return nil
        case (true, false): return .graphQLResponseJSON
        case (false, true): return .json
        case (true, true): break
        }
        guard let graphQLResponse, let json else { return nil }
        if graphQLResponse.quality != json.quality { return graphQLResponse.quality > json.quality ? .graphQLResponseJSON : .json }
        if graphQLResponse.specificity != json.specificity {
            return graphQLResponse.specificity > json.specificity ? .graphQLResponseJSON : .json
        }
        if graphQLResponse.specificity == 2, graphQLResponse.position < json.position { return .graphQLResponseJSON }
        return .json
    }
}
