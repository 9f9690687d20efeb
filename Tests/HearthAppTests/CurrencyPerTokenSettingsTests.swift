@testable import HearthApp
import HearthDomain
import Testing

/// The `--min-currency-per-token` and `--max-currency-per-token` options (FR-ONBOARD-5).
@Suite struct CurrencyPerTokenSettingsTests {
    private func range(_ arguments: [String], environment: [String: String] = [:]) throws -> ClosedRange<DecimalAmount> {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment))
            .households.currencyPerTokenRange
    }

    @Test func theDefaultRangeIsOneCentToOneHundred() throws {
        let defaults = try range([])
        #expect(defaults.lowerBound.description == "0.01" && defaults.upperBound.description == "100.00")
    }

    @Test func flagsAndEnvironmentSetTheRangeExactly() throws {
        let flags = try range(["--min-currency-per-token", "0.0005", "--max-currency-per-token", "2.5"])
        #expect(flags == DecimalAmount(tenThousandths: 5)...DecimalAmount(tenThousandths: 25_000))
        let environment = try range([], environment: ["HEARTH_MAX_CURRENCY_PER_TOKEN": "7"])
        #expect(environment.upperBound == DecimalAmount("7"))
    }

    @Test(arguments: [
        ["--min-currency-per-token", "0"], ["--min-currency-per-token", "-1"], ["--max-currency-per-token", "1e3"],
        ["--max-currency-per-token", "0.00001"], ["--min-currency-per-token", "5", "--max-currency-per-token", "4.99"],
    ])
    func refusesZeroMalformedAndInvertedRanges(arguments: [String]) {
        #expect(throws: UsageError.self) { try range(arguments) }
    }
}
