import HearthDomain
import Testing

struct UsernameSuggestionTests {
    func suggestion(_ email: String, _ number: Int = 1) throws -> String {
        Username.suggestion(forEmail: try EmailAddress(email, field: "email"), number: number).value
    }

    @Test(arguments: [
        ("Ana.Lopez@example.com", "ana.lopez"), ("ana+chores@example.com", "ana"), ("José.Núñez@example.com", "jos.nez"),
        ("_a.-b--c_@example.com", "a.b-c"), ("jo@example.com", "user-jo"), ("é@example.com", "user"),
        ("x2mzd7qpq4@privaterelay.appleid.com", "x2mzd7qpq4"),
    ])
    func cleansTheLocalPartToTheUsernameAlphabet(email: String, expected: String) throws {
        #expect(try suggestion(email) == expected)
    }

    @Test func numbersLaterSuggestions() throws {
        #expect(try suggestion("ana@example.com", 2) == "ana-2")
        #expect(try suggestion("ana@example.com", 13) == "ana-13")
    }

    @Test func staysWithinTheLengthLimitWithoutEndingInPunctuation() throws {
        let local = String(repeating: "a", count: 28) + ".bcdefgh"
        #expect(try suggestion("\(local)@example.com") == String(repeating: "a", count: 28) + ".bcd")
        #expect(try suggestion("\(local)@example.com", 12) == String(repeating: "a", count: 28) + "-12")
    }
}
