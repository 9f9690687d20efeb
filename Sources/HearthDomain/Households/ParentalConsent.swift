import Support

/// How a parent's consent was verified (onboarding.md, D-ONBOARD-1). Stored as the raw value.
public enum ConsentMethod: String, Sendable, CaseIterable, Codable {
    /// Email plus a confirming step (free plans).
    case emailPlus = "email_plus"
    /// A payment card check (paid plans).
    case card
}

/// Which of the two under-13 paths of FR-ONBOARD-3 a consent is for. Stored as the raw value.
public enum ChildProfilePath: String, Sendable, CaseIterable, Codable {
    /// The child will have their own login later: member kind ``MemberKind/child``.
    case ownAccount = "own_account"
    /// Parent-managed, no login: member kind ``MemberKind/shadow``.
    case supervised

    /// The kind of member a consent on this path admits.
    public var memberKind: MemberKind {
        switch self {
        case .ownAccount: .child
        case .supervised: .shadow
        }
    }
}

/// Validation of a parental consent's attestation: the statement the parent confirmed, as
/// the client showed it, kept as evidence.
public enum ConsentAttestation {
    /// The longest attestation, in characters.
    public static let maximumLength = 2000

    /// `text` trimmed, when it is 1–2000 characters.
    /// - Throws: ``FieldProblem`` `REQUIRED` or `TOO_LONG` for `field`.
    public static func validated(_ text: String, field: String) throws(FieldProblem) -> String {
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty {
            throw FieldProblem(field: field, reason: .required, message: "Give the statement the parent confirmed.")
        }
        if trimmed.count > maximumLength {
            throw FieldProblem(field: field, reason: .tooLong, message: "An attestation has at most \(maximumLength) characters.")
        }
        return trimmed
    }
}
