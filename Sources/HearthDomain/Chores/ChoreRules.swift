/// The product rules of chore definitions that are not operating limits (those are configurable:
/// `ChoresConfiguration` in HearthServices).
public enum ChoreRules {
    /// A chore's or a step's title: a name of 1–80 characters (``DisplayText/maximumLength``).
    public static let maximumTitleLength = DisplayText.maximumLength
    /// A chore's description, in characters.
    public static let maximumDescriptionLength = 2000
    /// A tag's name (FR-46): one line of 1–32 characters.
    public static let maximumTagNameLength = 32
    /// The most tokens one chore may be worth.
    public static let maximumTokens = 1_000_000
}
