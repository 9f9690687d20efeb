import COpenSSL

/// Hashes and verifies passwords with scrypt (through OpenSSL), storing them as PHC strings
/// that carry their own parameters, so the cost can be raised later and old hashes still
/// verify (and can be upgraded at the next login, see `needsRehash`).
///
/// The format is `$scrypt$ln=17,r=8,p=1$<salt>$<hash>` with a 16-byte random salt and a
/// 32-byte derived key, both in unpadded standard base64 as the PHC string format
/// specifies.
///
/// Hashing is deliberately slow and memory-hungry (about 128 MiB with the recommended
/// parameters) and blocks the calling thread: call it from a worker thread, never from an
/// event loop.
public struct PasswordHasher: Sendable {
    /// The parameters new hashes are made with.
    public let parameters: ScryptParameters

    /// The longest password accepted, in UTF-8 bytes: far beyond any passphrase, short enough
    /// that a huge body cannot make hashing expensive.
    public static let maximumPasswordBytes = 4096

    private static let saltLength = 16
    private static let keyLength = 32
    private static let algorithm = "scrypt"

    /// Creates a hasher whose new hashes use `parameters`.
    public init(parameters: ScryptParameters = .recommended) {
        self.parameters = parameters
    }

    /// A PHC string for `password` with a fresh random salt.
    ///
    /// - Throws: `PasswordHashError` with `.passwordTooLong`, `.unsupportedParameters`
    ///   (this hasher's parameters are invalid) or `.derivationFailed`.
    public func hash(_ password: String) throws(PasswordHashError) -> String {
        guard password.utf8.count <= Self.maximumPasswordBytes else {
            throw PasswordHashError(.passwordTooLong, "password longer than \(Self.maximumPasswordBytes) bytes")
        }
        let salt = SecureRandom.bytes(Self.saltLength)
        let key = try Self.derive(password: password.utf8, salt: salt, parameters: parameters, length: Self.keyLength)
        return PHCString(parameters: parameters, salt: salt, key: key).encoded
    }

    /// Whether `password` is the one `encoded` was made from, with the parameters stored in
    /// `encoded`; the derived keys are compared in constant time.
    ///
    /// A password longer than `maximumPasswordBytes` is reported as not matching: no stored
    /// hash can have been made from it.
    ///
    /// - Throws: `PasswordHashError` with `.malformedHash`, `.unsupportedParameters` or
    ///   `.derivationFailed`.
    public func verify(_ password: String, against encoded: String) throws(PasswordHashError) -> Bool {
        let stored = try PHCString(parsing: encoded)
        guard password.utf8.count <= Self.maximumPasswordBytes else { return false }
        let key = try Self.derive(password: password.utf8, salt: stored.salt, parameters: stored.parameters, length: stored.key.count)
        return ConstantTime.equals(key, stored.key)
    }

    /// Whether `encoded` should be replaced by a fresh hash (after a successful login): it
    /// is malformed, or any of its parameters, its salt or its key is weaker than this
    /// hasher's.
    public func needsRehash(_ encoded: String) -> Bool {
        guard let stored = try? PHCString(parsing: encoded) else { return true }
        return stored.parameters.logN < parameters.logN || stored.parameters.r < parameters.r
            || stored.parameters.p < parameters.p || stored.salt.count < Self.saltLength
            || stored.key.count < Self.keyLength
    }

    /// scrypt of `password` and `salt`, `length` bytes long.
    static func derive(
        password: some Collection<UInt8>, salt: [UInt8], parameters: ScryptParameters, length: Int
    ) throws(PasswordHashError) -> [UInt8] {
        guard parameters.isSupported, let memory = parameters.memoryRequired else {
            throw PasswordHashError(.unsupportedParameters, "scrypt parameters \(parameters) are not supported")
        }
        var key = [UInt8](repeating: 0, count: length)
        let status = password.withNonNullBytes { password, passwordCount in
            salt.withNonNullBytes { salt, saltCount in
                key.withUnsafeMutableBufferPointer { key in
                    EVP_PBE_scrypt(
                        UnsafeRawPointer(password).assumingMemoryBound(to: CChar.self), passwordCount,
                        salt, saltCount,
                        UInt64(1) << UInt64(parameters.logN), UInt64(parameters.r), UInt64(parameters.p),
                        UInt64(memory), key.baseAddress, key.count)
                }
            }
        }
        guard status == 1 else {
            ERR_clear_error()
            throw PasswordHashError(.derivationFailed, "OpenSSL EVP_PBE_scrypt failed")
        }
        return key
    }
}
