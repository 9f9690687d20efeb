@testable import HearthApp
import Testing

/// Google Calendar's `--google-export-delay`: its documented default, the ends of its range by flag
/// and environment, and values just outside refused.
@Suite struct GoogleCalendarSettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeSettings {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(
            ["--google-client-id", "client", "--google-client-secret", "secret"] + arguments, environment: environment))
    }

    @Test func theExportDelayDefaultsToThirtySecondsAndTakesTheEndsOfItsRange() throws {
        #expect(try settings([]).google?.exportDelay == .seconds(30))
        #expect(try settings(["--google-export-delay", "1s"]).google?.exportDelay == .seconds(1))
        #expect(try settings([], environment: ["HEARTH_GOOGLE_EXPORT_DELAY": "1h"]).google?.exportDelay == .seconds(3600))
    }

    @Test(arguments: ["0", "3601s"])
    func exportDelaysOutOfRangeAreRefused(value: String) {
        #expect(throws: UsageError.self) { try settings(["--google-export-delay", value]) }
    }
}
