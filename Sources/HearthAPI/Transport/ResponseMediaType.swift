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
    public init(_ value: String?) {
        guard let value, !value.allSatisfy({ $0 == " " || $0 == "\t" }) else {
            graphQLResponse = Preference(quality: 1, specificity: 2, position: 0)
            json = nil
            return
        }
        var graphQLResponse: Preference?
        var json: Preference?
        for (position, element) in value.split(separator: ",").enumerated() {
            let parts = element.split(separator: ";").map { $0.trimmingSpaces().lowercased() }
            guard let range = parts.first, !range.isEmpty else { continue }
            var quality = 1.0
            var charsetMatches = true
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces() }
                guard pair.count == 2 else { continue }
                let parameterValue = pair[1].trimmingCharacters(in: "\"")
                switch pair[0] {
                case "q": quality = Double(parameterValue).map { min(max($0, 0), 1) } ?? 0
                case "charset": charsetMatches = parameterValue == "utf-8" || parameterValue == "utf8"
                default: break
                }
            }
            guard charsetMatches else { continue }
            for type in [ResponseMediaType.graphQLResponseJSON, .json] {
                let specificity: Int
                switch range {
                case type.essence: specificity = 2
                case "application/*": specificity = 1
                case "*/*": specificity = 0
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
        self.graphQLResponse = graphQLResponse
        self.json = json
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

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        trimmingCharacters(in: " \t")
    }

    /// The text without leading and trailing characters from `set`.
    func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
