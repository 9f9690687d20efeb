import HearthDomain
import Testing

struct TokenEconomyTests {
    @Test func theDefaultTokenIsWorthTenCentsWithinTheDefaultRange() {
        #expect(TokenEconomy.defaultCurrencyPerToken.description == "0.10")
        #expect(TokenEconomy.defaultCurrencyPerTokenRange.lowerBound.description == "0.01")
        #expect(TokenEconomy.defaultCurrencyPerTokenRange.upperBound.description == "100.00")
        #expect(TokenEconomy.defaultCurrencyPerTokenRange.contains(TokenEconomy.defaultCurrencyPerToken))
    }

    @Test(arguments: ["USD", "EUR", "JPY", "GBP", "CHF", "XOF", " BRL "])
    func acceptsCurrenciesInCirculation(text: String) throws {
        #expect(try CurrencyCode(text, field: "input.currencyCode").code == text.filter { !$0.isWhitespace })
    }

    @Test(arguments: ["usd", "Usd", "UDS", "DEM", "XAU", "XDR", "USN", "US", "USDT", "", "€"])
    func refusesTyposWithdrawnCurrenciesMetalsFundsAndLowercase(text: String) {
        let problem = #expect(throws: FieldProblem.self) { try CurrencyCode(text, field: "input.currencyCode") }
        #expect(problem?.reason == .unknownValue && problem?.field == "input.currencyCode")
    }

    @Test func everyListedCodeIsThreeUppercaseLetters() {
        #expect(CurrencyCode.active.count > 150)
        #expect(CurrencyCode.active.allSatisfy { $0.count == 3 && $0.allSatisfy { $0.isASCII && $0.isUppercase } })
    }

    @Test func eachConsentPathAdmitsOneKindOfMember() {
        #expect(ChildProfilePath.ownAccount.memberKind == .child)
        #expect(ChildProfilePath.supervised.memberKind == .shadow)
    }

    @Test func anAttestationIsTrimmedRequiredAndBounded() throws {
        #expect(try ConsentAttestation.validated("  I consent. ", field: "input.attestation") == "I consent.")
        #expect(try ConsentAttestation.validated(String(repeating: "👍🏽", count: 2000), field: "f").count == 2000)
        #expect(throws: FieldProblem.self) { try ConsentAttestation.validated(" ", field: "f") }
        #expect(throws: FieldProblem.self) { try ConsentAttestation.validated(String(repeating: "a", count: 2001), field: "f") }
    }
}
