/// NIST SP 800-63B §3.1.1.2 password rules: a minimum length, a generous maximum, no
/// composition rules, and a check against passwords known to be common or taken from the
/// account's own details.
///
/// Length counts Unicode characters (what the user typed), not bytes. The list of common
/// passwords is given by the caller (the binary embeds `resources/common-passwords.txt`),
/// which keeps this type free of I/O.
public struct PasswordPolicy: Sendable {
    /// The fewest characters a password may have (issue: 10).
    public var minimumLength: Int
    /// The most characters a password may have. NIST asks to allow at least 64; the bound
    /// exists so a megabyte "password" cannot tie up the hashing workers.
    public var maximumLength: Int
    private let commonPasswords: Set<String>

    /// Creates the policy.
    /// - Parameter commonPasswords: Passwords to refuse, compared without regard to case.
    public init(minimumLength: Int = 10, maximumLength: Int = 256, commonPasswords: some Sequence<String>) {
        self.minimumLength = minimumLength
        self.maximumLength = maximumLength
        self.commonPasswords = Set(commonPasswords.map { $0.lowercased() })
    }

    /// Parses a list with one password per line; blank lines and lines starting with `#`
    /// are skipped.
    public static func passwordList(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            line.isEmpty || line.hasPrefix("#") ? nil : String(line)
        }
    }

    /// Checks `password` for an account with the given details.
    /// - Parameters:
    ///   - field: The input path named in the problem, e.g. `input.password`.
    ///   - context: The account's username, email address and display name, none of which
    ///     may serve as the password.
    /// - Throws: ``FieldProblem`` naming the first rule broken.
    public func check(_ password: String, field: String, context: [String] = []) throws(FieldProblem) {
        let length = password.count
        if length == 0 { throw FieldProblem(field: field, reason: .required, message: "Choose a password.") }
        if length < minimumLength {
            throw FieldProblem(field: field, reason: .tooShort, message: "A password has at least \(minimumLength) characters.")
        }
        if length > maximumLength {
            throw FieldProblem(field: field, reason: .tooLong, message: "A password has at most \(maximumLength) characters.")
        }
        let lowered = password.lowercased()
        if commonPasswords.contains(lowered) {
            throw FieldProblem(field: field, reason: .tooCommon, message: "This password is too common; choose another.")
        }
        if context.contains(where: { !$0.isEmpty && $0.lowercased() == lowered }) {
            throw FieldProblem(field: field, reason: .tooCommon, message: "A password must not be your username or email address.")
        }
    }
}
