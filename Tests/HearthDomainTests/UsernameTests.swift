import HearthDomain
import Testing

struct UsernameTests {
    @Test(arguments: ["ana", "Ana.Lopez", "kid_2", "a-b", String(repeating: "x", count: 32)])
    func acceptsLettersDigitsAndInnerPunctuation(text: String) throws {
        #expect(try Username(text, field: "input.username").value == text)
    }

    @Test func trimsSurroundingWhiteSpaceAndKeysWithoutCase() throws {
        let username = try Username("  Ana.Lopez \n", field: "input.username")
        #expect(username.value == "Ana.Lopez")
        #expect(username.key == "ana.lopez")
    }

    @Test(arguments: [
        ("", FieldProblem.Reason.required), ("ab", .tooShort), (String(repeating: "x", count: 33), .tooLong),
        ("ana lopez", .invalidFormat), (".ana", .invalidFormat), ("ana-", .invalidFormat), ("anа", .invalidFormat),
    ])
    func refusesWithTheReason(text: String, reason: FieldProblem.Reason) {
        #expect(throws: FieldProblem.self) { try Username(text, field: "input.username") }
        do { _ = try Username(text, field: "input.username") } catch {
            #expect(error.reason == reason)
            #expect(error.field == "input.username")
        }
    }
}
