/// Base64 with the URL- and filename-safe alphabet and no padding (RFC 4648 §5, as JOSE
/// and URL tokens use it).
public enum Base64URL {
    /// `bytes` encoded, without `=` padding.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        Base64Alphabet.url.encode(bytes)
    }

    /// The bytes `text` encodes, or nil when it is not canonical unpadded base64url: a
    /// character outside the alphabet (`=`, `+`, `/`, whitespace), a length of 4n+1, or
    /// non-zero bits after the last byte.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        Base64Alphabet.url.decode(text)
    }
}
