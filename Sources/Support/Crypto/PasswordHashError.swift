/// Why a password could not be hashed or checked.
public struct PasswordHashError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// The stored string is not a `$scrypt$ln=…,r=…,p=…$salt$hash` PHC string.
        case malformedHash
        /// The parameters are outside what scrypt accepts or exceed the memory limit.
        case unsupportedParameters
        /// The password is longer than `PasswordHasher.maximumPasswordBytes`.
        case passwordTooLong
        /// OpenSSL's scrypt failed (allocation failure).
        case derivationFailed
    }

    /// What went wrong, to match on.
    public let code: Code
    /// A description for logs; never contains the password or the hash.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code and the message, for logs.
    public var description: String { "PasswordHashError(\(code)): \(message)" }
}
