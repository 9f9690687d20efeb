/// The product rules of habits and habit events (US 01.06, US 02.02): what a title, a reason and a
/// comment may be. Lengths count characters as people see them (grapheme clusters, Swift's
/// `String.count`): "👨‍👩‍👧‍👦" is one character, "e\u{301}" is one. Each is one line of text, trimmed
/// like every name and label (``DisplayText``): no line breaks or control characters.
public enum HabitRules {
    /// A habit's title: 1–20 characters (US 01.06).
    public static let maximumTitleLength = 20
    /// A habit's reason: 0–30 characters (US 01.06).
    public static let maximumReasonLength = 30
    /// A habit event's comment: 0–20 characters (US 02.02).
    public static let maximumCommentLength = 20

    /// `text` trimmed, when it is a valid title.
    /// - Throws: ``FieldProblem`` `REQUIRED` (empty), `INVALID_FORMAT` (a line break or control
    ///   character) or `TOO_LONG` (more than 20 characters) for `field`.
    public static func title(_ text: String, field: String) throws(FieldProblem) -> String {
        try DisplayText.name(text, field: field, maximumLength: maximumTitleLength)
    }

    /// `text` trimmed, `""` when absent or blank: a habit's reason.
    /// - Throws: ``FieldProblem`` `INVALID_FORMAT` or `TOO_LONG` (more than 30 characters) for `field`.
    public static func reason(_ text: String?, field: String) throws(FieldProblem) -> String {
        try DisplayText.optionalLabel(text, field: field, maximumLength: maximumReasonLength) ?? ""
    }

    /// `text` trimmed, `""` when absent or blank: a habit event's comment.
    /// - Throws: ``FieldProblem`` `INVALID_FORMAT` or `TOO_LONG` (more than 20 characters) for `field`.
    public static func comment(_ text: String?, field: String) throws(FieldProblem) -> String {
        try DisplayText.optionalLabel(text, field: field, maximumLength: maximumCommentLength) ?? ""
    }

    /// `text` trimmed, when it is something to search comments for (US 04.03): one line of at most
    /// 20 characters (no comment is longer) with at least one letter or digit, since comments are
    /// searched by word and punctuation alone is no word.
    /// - Throws: ``FieldProblem`` `REQUIRED` (blank), `TOO_LONG`, or `INVALID_FORMAT` (a line
    ///   break, a control character, or no letter or digit) for `field`.
    public static func searchWord(_ text: String, field: String) throws(FieldProblem) -> String {
        guard let trimmed = try DisplayText.optionalLabel(text, field: field, maximumLength: maximumCommentLength) else {
            throw FieldProblem(field: field, reason: .required, message: "Enter a word to search for.")
        }
        guard trimmed.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) else {
            throw FieldProblem(field: field, reason: .invalidFormat, message: "Search for a word of letters or digits.")
        }
        return trimmed
    }
}
