import Support

/// Validation of the names and labels people see (account display names, household and member
/// names, location labels): names 1–80 characters after trimming (characters as people count
/// them: grapheme clusters), optional labels up to 80.
///
/// Names and labels are one line of text: no line breaks or control characters (a household's
/// name is the subject of its invitation emails, where they cannot go), and no character
/// stacking more than ``maximumScalarsPerCharacter`` scalars, so that 80 characters stay a few
/// kilobytes however many combining marks are piled on one of them.
public enum DisplayText {
    /// The longest display name, household or member name, or location label, in characters.
    public static let maximumLength = 80
    /// The most Unicode scalars one character may combine (the longest emoji sequences have ten).
    public static let maximumScalarsPerCharacter = 16

    /// `text` trimmed, when it is a valid required name.
    /// - Throws: ``FieldProblem`` `REQUIRED`, `INVALID_FORMAT` (a line break or control
    ///   character) or `TOO_LONG` for `field`.
    public static func name(_ text: String, field: String) throws(FieldProblem) -> String {
        try name(text, field: field, maximumLength: maximumLength)
    }

    /// `text` trimmed, when it is a valid required name of at most `maximumLength` characters
    /// (a tag's name has 32).
    /// - Throws: ``FieldProblem`` `REQUIRED`, `INVALID_FORMAT` (a line break or control
    ///   character) or `TOO_LONG` for `field`.
    public static func name(_ text: String, field: String, maximumLength: Int) throws(FieldProblem) -> String {
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty { throw FieldProblem(field: field, reason: .required, message: "Enter a name.") }
        try checkCharacters(of: trimmed, field: field)
        if trimmed.count > maximumLength {
            throw FieldProblem(field: field, reason: .tooLong, message: "A name has at most \(maximumLength) characters.")
        }
        return trimmed
    }

    /// `text` trimmed, or `nil` when empty: a longer text of several lines, such as a chore's
    /// description, of at most `maximumLength` characters. Line breaks and tabs are allowed; other
    /// control characters are not.
    /// - Throws: ``FieldProblem`` `INVALID_FORMAT` or `TOO_LONG` for `field`.
    public static func optionalParagraphs(_ text: String?, field: String, maximumLength: Int) throws(FieldProblem) -> String? {
        guard let trimmed = text?.trimmingWhitespace(), !trimmed.isEmpty else { return nil }
        let allowed: Set<Unicode.Scalar> = ["\n", "\r", "\t"]
        let isText = !trimmed.unicodeScalars.contains { $0.properties.generalCategory == .control && !allowed.contains($0) }
        guard isText else { throw FieldProblem(field: field, reason: .invalidFormat, message: "Use text without control characters.") }
        try checkMarks(of: trimmed, field: field)
        if trimmed.count > maximumLength {
            throw FieldProblem(field: field, reason: .tooLong, message: "At most \(maximumLength) characters.")
        }
        return trimmed
    }

    /// The key a name sorts by: the name lowercased (Unicode's default case mapping). Stored
    /// beside the name (`households.name_key`), so every database orders names alike without a
    /// dialect's case-insensitive collation.
    public static func sortKey(_ name: String) -> String {
        name.lowercased()
    }

    /// `text` trimmed, or `nil` when empty: an optional label such as a location, of at most
    /// `maximumLength` characters (a habit's reason has 30).
    /// - Throws: ``FieldProblem`` `INVALID_FORMAT` (a line break or control character) or
    ///   `TOO_LONG` for `field`.
    public static func optionalLabel(_ text: String?, field: String, maximumLength: Int = DisplayText.maximumLength) throws(FieldProblem) -> String? {
        guard let trimmed = text?.trimmingWhitespace(), !trimmed.isEmpty else { return nil }
        try checkCharacters(of: trimmed, field: field)
        if trimmed.count > maximumLength {
            throw FieldProblem(field: field, reason: .tooLong, message: "At most \(maximumLength) characters.")
        }
        return trimmed
    }

    /// `text` when it is exactly one emoji (one grapheme cluster that presents as an emoji, made
    /// of emoji and the joiners, selectors, keycap and tags of emoji sequences), `nil` when
    /// empty or absent.
    /// - Throws: ``FieldProblem`` `INVALID_FORMAT` for `field`.
    public static func emoji(_ text: String?, field: String) throws(FieldProblem) -> String? {
        guard let trimmed = text?.trimmingWhitespace(), !trimmed.isEmpty else { return nil }
        // Digits and `#` have the Emoji property too, but show as emoji only in a sequence
        // (keycaps) or with the emoji variation selector: a lone scalar must present as emoji.
        let scalars = trimmed.unicodeScalars
        let isEmoji = trimmed.count == 1 && scalars.count <= maximumScalarsPerCharacter
            && scalars.allSatisfy(isPartOfEmoji)
            && scalars.first.map { $0.properties.isEmoji && ($0.properties.isEmojiPresentation || scalars.count > 1) } == true
        guard isEmoji else { throw FieldProblem(field: field, reason: .invalidFormat, message: "Choose one emoji.") }
        return trimmed
    }

    /// Refuses line breaks and control characters, and characters of too many scalars.
    private static func checkCharacters(of text: String, field: String) throws(FieldProblem) {
        let isOneLine = !text.unicodeScalars.contains {
            switch $0.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: true
            default: false
            }
        }
        guard isOneLine else {
            throw FieldProblem(field: field, reason: .invalidFormat, message: "Use one line of text, without control characters.")
        }
        try checkMarks(of: text, field: field)
    }

    /// Refuses characters of more than ``maximumScalarsPerCharacter`` scalars.
    private static func checkMarks(of text: String, field: String) throws(FieldProblem) {
        if text.contains(where: { $0.unicodeScalars.count > maximumScalarsPerCharacter }) {
            throw FieldProblem(
                field: field, reason: .tooLong, message: "A character combines at most \(maximumScalarsPerCharacter) marks.")
        }
    }

    /// Whether `scalar` may appear in an emoji sequence: an emoji, or the zero-width joiner, the
    /// emoji variation selector, the keycap mark or a tag (subdivision flags).
    private static func isPartOfEmoji(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isEmoji || scalar == "\u{200D}" || scalar == "\u{FE0F}" || scalar == "\u{20E3}"
            || (0xE0020...0xE007F).contains(scalar.value)
    }
}
