import HearthDomain
import Testing

struct DisplayTextTests {
    /// A family: seven Unicode scalars (four people joined by zero-width joiners), one character.
    private let family = "👨‍👩‍👧‍👦"

    @Test func namesAreTrimmed() throws {
        #expect(try DisplayText.name("  City Flat \n", field: "input.name") == "City Flat")
    }

    @Test func namesCountCharactersAsPeopleSeeThem() throws {
        #expect(family.unicodeScalars.count == 7 && family.count == 1)
        let eighty = String(repeating: family, count: 80)
        #expect(try DisplayText.name(eighty, field: "input.name") == eighty)
        #expect(try DisplayText.name(String(repeating: "e\u{301}", count: 80), field: "input.name").count == 80)
        let problem = #expect(throws: FieldProblem.self) { try DisplayText.name(eighty + family, field: "input.name") }
        #expect(problem?.reason == .tooLong && problem?.field == "input.name")
        #expect(throws: FieldProblem.self) { try DisplayText.name(String(repeating: "a", count: 81), field: "input.name") }
    }

    @Test(arguments: ["Flat\nTwo", "Flat\r\nTwo", "Fl\u{0}at", "Flat\u{7F}", "Flat\u{85}Two", "Flat\u{2028}Two", "Flat\u{2029}Two", "A\tB"])
    func namesAndLabelsHaveNoLineBreaksOrControlCharacters(text: String) {
        let name = #expect(throws: FieldProblem.self) { try DisplayText.name(text, field: "input.name") }
        #expect(name?.reason == .invalidFormat && name?.field == "input.name")
        let label = #expect(throws: FieldProblem.self) { try DisplayText.optionalLabel(text, field: "input.locationLabel") }
        #expect(label?.reason == .invalidFormat && label?.field == "input.locationLabel")
    }

    @Test func aCharacterHoldsABoundedNumberOfScalars() throws {
        let longestEmoji = "👩🏻‍❤️‍💋‍👨🏼"  // kiss with skin tones: ten scalars, one character
        #expect(longestEmoji.unicodeScalars.count == 10 && longestEmoji.count == 1)
        #expect(try DisplayText.name(longestEmoji, field: "input.name") == longestEmoji)
        let bound = DisplayText.maximumScalarsPerCharacter
        let atBound = "e" + String(repeating: "\u{301}", count: bound - 1)
        #expect(try DisplayText.name(atBound, field: "input.name") == atBound)
        let problem = #expect(throws: FieldProblem.self) { try DisplayText.name(atBound + "\u{301}", field: "input.name") }
        #expect(problem?.reason == .tooLong)
        #expect(throws: FieldProblem.self) { try DisplayText.optionalLabel("x" + atBound + "\u{301}", field: "input.locationLabel") }
    }

    @Test(arguments: ["", "   ", "\n\t"])
    func aNameIsRequired(text: String) {
        let problem = #expect(throws: FieldProblem.self) { try DisplayText.name(text, field: "input.displayName") }
        #expect(problem?.reason == .required && problem?.field == "input.displayName")
    }

    @Test func optionalLabelsAreTrimmedEmptyMeansNoneAndTheyAreBounded() throws {
        #expect(try DisplayText.optionalLabel(nil, field: "input.locationLabel") == nil)
        #expect(try DisplayText.optionalLabel("  ", field: "input.locationLabel") == nil)
        #expect(try DisplayText.optionalLabel(" Lisbon ", field: "input.locationLabel") == "Lisbon")
        #expect(try DisplayText.optionalLabel(String(repeating: family, count: 80), field: "input.locationLabel")?.count == 80)
        let problem = #expect(throws: FieldProblem.self) {
            try DisplayText.optionalLabel(String(repeating: family, count: 81), field: "input.locationLabel")
        }
        #expect(problem?.reason == .tooLong)
    }

    @Test(arguments: ["🏠", "👨‍👩‍👧‍👦", "🇵🇹", "1️⃣", "❤️", "👍🏽", " 🌻 "])
    func anEmojiIsOneCharacterThatPresentsAsEmoji(text: String) throws {
        #expect(try DisplayText.emoji(text, field: "input.emoji") == text.filter { !$0.isWhitespace })
    }

    @Test(arguments: [
        "a", "1", "#", "❤", "🏠🏠", "🏠 x", "©",
        // One character each, but not an emoji: a digit or an emoji with combining marks.
        "1\u{301}", "🏠\u{301}", "🏠" + String(repeating: "\u{FE0F}", count: 40),
    ])
    func anythingElseIsNotAnEmoji(text: String) {
        let problem = #expect(throws: FieldProblem.self) { try DisplayText.emoji(text, field: "input.emoji") }
        #expect(problem?.reason == .invalidFormat && problem?.field == "input.emoji")
    }

    @Test func noEmojiIsNone() throws {
        #expect(try DisplayText.emoji(nil, field: "input.emoji") == nil)
        #expect(try DisplayText.emoji("  ", field: "input.emoji") == nil)
    }
}
