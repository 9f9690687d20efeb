import HearthDomain
import Testing

struct PasswordPolicyTests {
    let policy = PasswordPolicy(commonPasswords: PasswordPolicy.passwordList("# common\n1234567890\n\nQwertyuiop\n"))

    private func reason(_ password: String, context: [String] = []) -> FieldProblem.Reason? {
        do {
            try policy.check(password, field: "input.password", context: context)
            return nil
        } catch { return error.reason }
    }

    @Test func acceptsTenCharactersAtTheEdge() {
        #expect(reason("abcdefghij") == nil)
        #expect(reason("abcdefghi") == .tooShort)
    }

    @Test func countsCharactersNotBytes() {
        #expect(reason("ééééééééé") == .tooShort)
        #expect(reason("éééééééééé") == nil)
    }

    @Test func refusesPasswordsOverTheMaximum() {
        #expect(reason(String(repeating: "a", count: 256)) == nil)
        #expect(reason(String(repeating: "a", count: 257)) == .tooLong)
    }

    @Test func refusesListedPasswordsWhateverTheirCase() {
        #expect(reason("1234567890") == .tooCommon)
        #expect(reason("QWERTYUIOP") == .tooCommon)
    }

    @Test func refusesTheAccountsOwnDetails() {
        #expect(reason("ana.lopez.example", context: ["Ana.Lopez.Example", "ana@example.com"]) == .tooCommon)
    }

    @Test func refusesAnEmptyPasswordAsRequired() {
        #expect(reason("") == .required)
    }

    @Test func readsTheListSkippingCommentsAndBlankLines() {
        #expect(PasswordPolicy.passwordList("# header\n\nabc\r\ndef\n") == ["abc", "def"])
    }
}
