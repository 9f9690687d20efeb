import FoundationEssentials

/// A JSON Web Key Set (RFC 7517 §5): the verification keys an identity provider publishes.
public struct JSONWebKeySet: Sendable {
    /// The usable keys, in document order.
    public let keys: [JSONWebKey]

    /// A set of the given keys.
    public init(keys: [JSONWebKey]) {
        self.keys = keys
    }

    /// Parses a JWKS document, `{"keys": [...]}`.
    ///
    /// Keys this library cannot or must not use (other key types or curves, encryption keys,
    /// RSA keys under 2048 bits, malformed entries) are skipped, so one odd key does not make
    /// a provider's whole set unusable; tokens naming a skipped key then fail with
    /// `.unknownKey`.
    ///
    /// - Throws: `.malformedKeySet` when the document is not a JSON object with a `keys` array.
    public init(json: some Collection<UInt8>) throws(JOSEError) {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: Data(json))
        } catch {
            throw JOSEError(.malformedKeySet, "not a JSON Web Key Set document")
        }
        keys = document.keys.compactMap { entry in entry.key.flatMap { try? JSONWebKey($0) } }
    }

    /// The key for a token with `header`: the key whose `kid` is the header's (preferring
    /// one that can verify the header's algorithm, when several share the `kid`); for a
    /// header without `kid`, the only key of a one-key set. Nil when there is none.
    public func key(for header: JWSHeader) -> JSONWebKey? {
        guard let keyID = header.keyID else { return keys.count == 1 ? keys[0] : nil }
        let candidates = keys.filter { $0.keyID == keyID }
        return candidates.first { $0.canVerify(header.algorithm) } ?? candidates.first
    }

    /// The set as a JWKS JSON document (public keys only; symmetric keys are left out),
    /// ready to serve from a `jwks_uri`.
    public func jsonRepresentation() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(PublicDocument(keys: keys.compactMap(\.raw))))
        } catch {
            preconditionFailure("encoding a JWKS of strings cannot fail: \(error)")
        }
    }

    private struct Document: Decodable {
        var keys: [Entry]
    }

    private struct PublicDocument: Encodable {
        var keys: [RawJSONWebKey]
    }

    /// One member of `keys`, nil when it is not even shaped like a JWK.
    private struct Entry: Decodable {
        var key: RawJSONWebKey?

        init(from decoder: any Decoder) throws {
            key = try? RawJSONWebKey(from: decoder)
        }
    }
}
