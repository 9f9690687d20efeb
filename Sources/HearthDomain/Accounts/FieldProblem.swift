/// One thing wrong with one input field, as clients show it next to that field: the
/// `extensions.field` / `extensions.reason` of a `BAD_USER_INPUT` error.
public struct FieldProblem: Error, Sendable, Hashable {
    /// Why a value was refused; clients branch on this, never on the message.
    public enum Reason: String, Sendable, Hashable {
        /// The value is empty.
        case required = "REQUIRED"
        /// The value is shorter than the minimum.
        case tooShort = "TOO_SHORT"
        /// The value is longer than the maximum.
        case tooLong = "TOO_LONG"
        /// The value does not have the required shape (an email address without `@`, a
        /// username with a space).
        case invalidFormat = "INVALID_FORMAT"
        /// The password is on the list of commonly used passwords, or is the username or email.
        case tooCommon = "TOO_COMMON"
        /// Another account already uses the value.
        case taken = "TAKEN"
        /// The file is not of an accepted kind (an avatar that is not a PNG, JPEG or WebP image,
        /// whatever its name or declared type says).
        case unsupportedFormat = "UNSUPPORTED_FORMAT"
        /// The file has more bytes, or the image more pixels across or down, than allowed.
        case tooLarge = "TOO_LARGE"
        /// A number outside the allowed range (an age, a token value).
        case outOfRange = "OUT_OF_RANGE"
        /// The value is not one the server knows (a time zone, a currency, a terms version).
        case unknownValue = "UNKNOWN_VALUE"
        /// A confirmation does not repeat what it confirms (a household's name when deleting it).
        case mismatch = "MISMATCH"
        /// The value cannot be used with the other fields given, or in the object's state.
        case notAllowed = "NOT_ALLOWED"
        /// An id a client made for a new object is not theirs to use: another account's object
        /// has (or had) it, or it is of another type (never says whose or what).
        case idTaken = "ID_TAKEN"
    }

    /// The input path of the field, e.g. `input.password`.
    public var field: String
    /// Why the value was refused.
    public var reason: Reason
    /// A sentence for the user.
    public var message: String

    /// Creates a problem report.
    public init(field: String, reason: Reason, message: String) {
        self.field = field
        self.reason = reason
        self.message = message
    }
}

/// Every problem found in one input, in field order; thrown when there is at least one.
public struct InputProblems: Error, Sendable, Hashable {
    /// The problems, at least one.
    public var problems: [FieldProblem]

    /// Creates the report.
    public init(_ problems: [FieldProblem]) {
        precondition(!problems.isEmpty, "InputProblems needs at least one problem")
        self.problems = problems
    }

    /// Throws the problems collected so far, if any.
    public static func throwIfAny(_ problems: [FieldProblem]) throws(InputProblems) {
        if !problems.isEmpty { throw InputProblems(problems) }
    }
}
