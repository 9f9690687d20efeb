// Pure Swift (no Glibc, no Foundation): compiled directly into the HTTP parser fuzz target.

extension HTTPHeaders {
    /// The token of a `Bearer` credential, the value of an `Authorization` field (RFC 6750
    /// §2.1): the scheme is matched case-insensitively, spaces and tabs around the value and
    /// between scheme and token are ignored. Nil for another scheme or an empty token.
    ///
    /// Read on the value's bytes: a bearer token is often the longest part of a request head,
    /// and every authenticated request pays for this.
    public static func bearerToken(in value: String) -> String? {
        var value = value
        return value.withUTF8 { utf8 -> String? in
            let credentials = ASCII.trimmed(UnsafeRawBufferPointer(utf8))
            let scheme = "bearer ".utf8.count
            guard credentials.count > scheme,
                ASCII.equalsCaseInsensitive(UnsafeRawBufferPointer(rebasing: credentials[..<scheme]), "bearer ")
            else { return nil }
            let token = ASCII.trimmed(UnsafeRawBufferPointer(rebasing: credentials[scheme...]))
            return token.isEmpty ? nil : String(decoding: token, as: UTF8.self)
        }
    }
}
