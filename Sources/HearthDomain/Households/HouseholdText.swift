import Support

/// Validation of the free-text fields of households and members: names 1–80 characters after
/// trimming (characters as people count them: grapheme clusters), optional labels up to 80.
public enum HouseholdText {
    /// The longest household name, member display name or location label, in characters.
    public static let maximumLength = 80

    /// `text` trimmed, when it is a valid required name.
    /// - Throws: ``FieldProblem`` `REQUIRED` or `TOO_LONG` for `field`.
    public static func name(_ text: String, field: String) throws(FieldProblem) -> String {
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty { throw FieldProblem(field: field, reason: .required, message: "Enter a name.") }
        if trimmed.count > maximumLength {
            throw FieldProblem(field: field, reason: .tooLong, message: "A name has at most \(maximumLength) characters.")
        }
        return trimmed
    }

    /// `text` trimmed, or `nil` when empty: an optional label such as a location.
    /// - Throws: ``FieldProblem`` `TOO_LONG` for `field`.
    public static func optionalLabel(_ text: String?, field: String) throws(FieldProblem) -> String? {
        guard let trimmed = text?.trimmingWhitespace(), !trimmed.isEmpty else { return nil }
        if trimmed.count > maximumLength {
            throw FieldProblem(field: field, reason: .tooLong, message: "At most \(maximumLength) characters.")
        }
        return trimmed
    }

    /// `text` when it is exactly one emoji (one grapheme cluster that presents as an emoji), `nil` when empty or absent.
    /// - Throws: ``FieldProblem`` `INVALID_FORMAT` for `field`.
    public static func emoji(_ text: String?, field: String) throws(FieldProblem) -> String? {
        guard let trimmed = text?.trimmingWhitespace(), !trimmed.isEmpty else { return nil }
        // Digits and `#` have the Emoji property too, but show as emoji only in a sequence
        // (keycaps) or with the emoji variation selector: a lone scalar must present as emoji.
        let scalars = trimmed.unicodeScalars
        let isEmoji = trimmed.count == 1 && scalars.first.map {
            $0.properties.isEmoji && ($0.properties.isEmojiPresentation || scalars.count > 1)
        } == true
        guard isEmoji else { throw FieldProblem(field: field, reason: .invalidFormat, message: "Choose one emoji.") }
        return trimmed
    }
}
