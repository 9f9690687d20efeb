@testable import HearthApp
import Testing

@Suite struct OptionParserTests {
    let parser = OptionParser(specs: [
        .value("--port", "PORT", environment: "HEARTH_PORT", default: "8080", help: "Port."),
        .value("--host", "HOST", environment: "HEARTH_HOST", default: "127.0.0.1", help: "Host."),
        .toggle("--verbose", help: "Talk more."),
    ])

    @Test func flagsWinOverEnvironmentWhichWinsOverDefaults() throws {
        let environment = ["HEARTH_PORT": "9000", "HEARTH_HOST": "::1"]
        let fromEnvironment = try parser.parse([], environment: environment)
        #expect(fromEnvironment.string("--port") == "9000")
        #expect(fromEnvironment.string("--host") == "::1")
        let fromFlags = try parser.parse(["--port", "7000", "--host=0.0.0.0"], environment: environment)
        #expect(fromFlags.string("--port") == "7000")
        #expect(fromFlags.string("--host") == "0.0.0.0")
        let defaults = try parser.parse([], environment: [:])
        #expect(defaults.string("--port") == "8080")
    }

    @Test func rejectsUnknownFlagsMissingValuesAndValuedToggles() {
        #expect(throws: UsageError.self) { try parser.parse(["--prot", "1"], environment: [:]) }
        #expect(throws: UsageError.self) { try parser.parse(["--port"], environment: [:]) }
        #expect(throws: UsageError.self) { try parser.parse(["--verbose=yes"], environment: [:]) }
    }

    @Test func keepsPositionalArgumentsAndStopsAtDoubleDash() throws {
        let parsed = try parser.parse(["a", "--verbose", "--", "--port"], environment: [:])
        #expect(parsed.positional == ["a", "--port"])
        #expect(try parsed.isOn("--verbose"))
    }

    @Test func namesTheSourceOfAnInvalidValue() throws {
        let parsed = try parser.parse([], environment: ["HEARTH_PORT": "eighty"])
        #expect {
            _ = try parsed.integer("--port", in: 0...65535)
        } throws: { error in
            (error as? UsageError)?.message == "invalid value 'eighty' for HEARTH_PORT: expected an integer from 0 to 65535"
        }
        #expect(throws: UsageError.self) { _ = try parser.parse(["--port", "65536"], environment: [:]).integer("--port", in: 0...65535) }
        #expect(try parser.parse(["--port", "65535"], environment: [:]).integer("--port", in: 0...65535) == 65535)
    }

    @Test func parsesByteCountsAndDurations() {
        #expect(ParsedOptions.parseByteCount("16KiB") == 16384)
        #expect(ParsedOptions.parseByteCount("1m") == 1 << 20)
        #expect(ParsedOptions.parseByteCount("1000") == 1000)
        #expect(ParsedOptions.parseByteCount("2kb") == 2000)
        #expect(ParsedOptions.parseByteCount("lots") == nil)
        #expect(ParsedOptions.parseByteCount("99999999999999999g") == nil)
        #expect(ParsedOptions.parseDuration("250ms") == .milliseconds(250))
        #expect(ParsedOptions.parseDuration("10s") == .seconds(10))
        #expect(ParsedOptions.parseDuration("2m") == .seconds(120))
        #expect(ParsedOptions.parseDuration("3") == .seconds(3))
        #expect(ParsedOptions.parseDuration("-1s") == nil)
    }

    @Test func helpNamesEveryOptionWithItsEnvironmentAndDefault() {
        let help = parser.helpText()
        #expect(help.contains("--port PORT"))
        #expect(help.contains("Environment: HEARTH_PORT."))
        #expect(help.contains("Default: 8080."))
        #expect(help.contains("--verbose\n"))
    }
}
