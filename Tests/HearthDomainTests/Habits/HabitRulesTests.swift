import HearthDomain
import Testing

/// Titles, reasons and comments count characters as people see them (US 01.06, US 02.02).
struct HabitRulesTests {
    /// A family: seven Unicode scalars joined by zero-width joiners, one character.
    private let family = "👨‍👩‍👧‍👦"

    @Test func aTitleHasOneToTwentyCharactersCountedAsPeopleSeeThem() throws {
        #expect(family.unicodeScalars.count == 7 && family.count == 1)
        let twenty = String(repeating: family, count: 20)
        #expect(try HabitRules.title(twenty, field: "input.title") == twenty)
        #expect(try HabitRules.title(String(repeating: "a", count: 20), field: "input.title").count == 20)
        #expect(try HabitRules.title("  Run  ", field: "input.title") == "Run", "titles are trimmed like every name")
        let emoji = #expect(throws: FieldProblem.self) { try HabitRules.title(twenty + family, field: "input.title") }
        #expect(emoji?.reason == .tooLong && emoji?.field == "input.title")
        let letters = #expect(throws: FieldProblem.self) { try HabitRules.title(String(repeating: "a", count: 21), field: "input.title") }
        #expect(letters?.reason == .tooLong)
        #expect(try HabitRules.title(String(repeating: "e\u{301}", count: 20), field: "input.title").count == 20, "a letter with its accent is one")
    }

    @Test(arguments: ["", "   ", "\n"])
    func aTitleIsRequired(text: String) {
        let problem = #expect(throws: FieldProblem.self) { try HabitRules.title(text, field: "input.title") }
        #expect(problem?.reason == .required || problem?.reason == .invalidFormat)
    }

    @Test func aReasonHasUpToThirtyCharacters() throws {
        #expect(try HabitRules.reason(nil, field: "input.reason") == "")
        #expect(try HabitRules.reason("  ", field: "input.reason") == "")
        let thirty = String(repeating: "🏃🏽‍♀️", count: 30)
        #expect(try HabitRules.reason(thirty, field: "input.reason") == thirty)
        let problem = #expect(throws: FieldProblem.self) { try HabitRules.reason(thirty + "x", field: "input.reason") }
        #expect(problem?.reason == .tooLong && problem?.field == "input.reason")
    }

    @Test func aCommentHasUpToTwentyCharacters() throws {
        #expect(try HabitRules.comment(nil, field: "input.comment") == "")
        let twenty = String(repeating: "é", count: 20)
        #expect(try HabitRules.comment(twenty, field: "input.comment") == twenty)
        let problem = #expect(throws: FieldProblem.self) { try HabitRules.comment(twenty + "é", field: "input.comment") }
        #expect(problem?.reason == .tooLong && problem?.field == "input.comment")
    }

    @Test(arguments: ["Run\nfast", "Run\r\nfast", "Ru\u{0}n", "Run\u{2028}fast", "A\tB"])
    func titlesReasonsAndCommentsAreOneLine(text: String) {
        #expect((#expect(throws: FieldProblem.self) { try HabitRules.title(text, field: "t") })?.reason == .invalidFormat)
        #expect((#expect(throws: FieldProblem.self) { try HabitRules.reason(text, field: "r") })?.reason == .invalidFormat)
        #expect((#expect(throws: FieldProblem.self) { try HabitRules.comment(text, field: "c") })?.reason == .invalidFormat)
    }
}

/// What comments may be searched for (US 04.03).
struct HabitSearchWordTests {
    @Test func aWordIsTrimmedAndMayHoldPunctuationBesideLetters() throws {
        #expect(try HabitRules.searchWord("  Run ", field: "f") == "Run")
        #expect(try HabitRules.searchWord("café!", field: "f") == "café!")
        #expect(try HabitRules.searchWord("AND", field: "f") == "AND", "an FTS5 operator is just a word here")
        #expect(try HabitRules.searchWord("5k", field: "f") == "5k")
    }

    @Test(arguments: ["\"", "*", "!!", "-", "\"*\""])
    func punctuationAloneIsNoWord(text: String) {
        let problem = #expect(throws: FieldProblem.self) { try HabitRules.searchWord(text, field: "filter.commentContains") }
        #expect(problem?.reason == .invalidFormat && problem?.field == "filter.commentContains")
    }

    @Test func aSearchIsOneLineOfAtMostTwentyCharacters() {
        #expect((#expect(throws: FieldProblem.self) { try HabitRules.searchWord(" ", field: "f") })?.reason == .required)
        #expect((#expect(throws: FieldProblem.self) { try HabitRules.searchWord(String(repeating: "a", count: 21), field: "f") })?.reason == .tooLong)
        #expect((#expect(throws: FieldProblem.self) { try HabitRules.searchWord("a\nb", field: "f") })?.reason == .invalidFormat)
    }
}
