import HearthDomain
import Testing

struct DecimalAmountTests {
    @Test(arguments: [
        ("0", 0), ("12", 120_000), ("0.1", 1_000), ("0.10", 1_000), ("1.2345", 12_345), ("00.50", 5_000),
        ("999999999.9999", 9_999_999_999_999),
    ] as [(String, Int64)])
    func parsesDigitsWithUpToFourAfterThePoint(text: String, tenThousandths: Int64) {
        #expect(DecimalAmount(text)?.tenThousandths == tenThousandths)
    }

    @Test(arguments: [
        "", ".", "1.", ".5", "1.23456", "+1", "-1", "1e2", "1E-2", " 1", "1 ", "1,5", "1.2.3", "0x10", "1_000",
        "1234567890", "NaN", "Infinity", "١", "１", "½", "99999999999999999999999", "1.99999999999999999999", "0.1\u{0}",
    ])
    func refusesAnythingElse(text: String) {
        #expect(DecimalAmount(text) == nil)
    }

    @Test(arguments: [
        ("0", "0.00"), ("0.1", "0.10"), ("1", "1.00"), ("1.2300", "1.23"), ("1.234", "1.234"), ("0.0001", "0.0001"),
        ("00.50", "0.50"), ("100", "100.00"),
    ])
    func writesTheCanonicalFormWithAtLeastTwoFractionDigits(text: String, canonical: String) {
        #expect(DecimalAmount(text)?.description == canonical)
    }

    @Test func theCanonicalFormParsesBackToTheSameAmount() throws {
        for tenThousandths: Int64 in [0, 1, 9, 10, 99, 100, 1_000, 9_999, 10_000, 123_456_789] {
            let amount = DecimalAmount(tenThousandths: tenThousandths)
            #expect(DecimalAmount(amount.description) == amount)
        }
    }

    @Test func substringsParseLikeStrings() {
        let text = "price: 12.5"
        #expect(DecimalAmount(text.split(separator: " ")[1]) == DecimalAmount("12.5"))
    }

    @Test func amountsCompareExactly() {
        #expect(DecimalAmount("0.1") == DecimalAmount("0.1000"))
        #expect(DecimalAmount(tenThousandths: 999) < DecimalAmount(tenThousandths: 1_000))
        #expect(DecimalAmount("2")! > DecimalAmount("1.9999")!)
    }
}
