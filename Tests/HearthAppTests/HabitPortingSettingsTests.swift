@testable import HearthApp
import HearthHTTP
import HearthServices
import Testing

/// `--loop-import-max-bytes` (and its environment variable) reaches the importer and the body
/// limit of `POST /import/loop`, and `--loop-import-max-files` the importer, with the documented
/// defaults and ranges.
@Suite struct HabitPortingSettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeSettings {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment))
    }

    @Test func theDefaultIsTwoMebibytesForTheImporterAndTheImportRoutesBody() throws {
        let defaults = try settings([])
        #expect(defaults.habitPorting == HabitPortingConfiguration(maxImportBytes: 2 << 20))
        #expect(defaults.http.parser.bodyLimitRules.contains(BodyLimitRule(method: .post, path: "/import/loop", maxBodyBytes: 2 << 20)))
    }

    @Test func theFlagAndTheEnvironmentReachTheLimit() throws {
        #expect(try settings(["--loop-import-max-bytes", "64KiB"]).habitPorting.maxImportBytes == 64 << 10)
        #expect(try settings([], environment: ["HEARTH_LOOP_IMPORT_MAX_BYTES": "4096"]).habitPorting.maxImportBytes == 4096)
    }

    @Test func valuesAtTheEdgesOfTheRangePassAndOnePastFails() throws {
        #expect(try settings(["--loop-import-max-bytes", "1024"]).habitPorting.maxImportBytes == 1024)
        #expect(throws: UsageError.self) { try settings(["--loop-import-max-bytes", "1023"]) }
        #expect(try settings(["--loop-import-max-bytes", "\(1 << 30)"]).habitPorting.maxImportBytes == 1 << 30)
        #expect(throws: UsageError.self) { try settings(["--loop-import-max-bytes", "\((1 << 30) + 1)"]) }
    }

    @Test func theFileLimitIsAThousandAndThreeByDefaultAndTakesTheFlagAndTheEnvironmentWithinItsRange() throws {
        #expect(try settings([]).habitPorting.maxFiles == 1003)
        #expect(try settings(["--loop-import-max-files", "40"]).habitPorting.maxFiles == 40)
        #expect(try settings([], environment: ["HEARTH_LOOP_IMPORT_MAX_FILES": "41"]).habitPorting.maxFiles == 41)
        #expect(try settings(["--loop-import-max-files", "3"]).habitPorting.maxFiles == 3)
        #expect(throws: UsageError.self) { try settings(["--loop-import-max-files", "2"]) }
        #expect(try settings(["--loop-import-max-files", "100000"]).habitPorting.maxFiles == 100_000)
        #expect(throws: UsageError.self) { try settings(["--loop-import-max-files", "100001"]) }
    }

    @Test func eventsPerTransactionAreAThousandByDefaultAndTakeTheFlagAndTheEnvironmentWithinTheirRange() throws {
        #expect(try settings([]).habitPorting.eventsPerTransaction == 1000)
        #expect(try settings(["--loop-import-events-per-transaction", "50"]).habitPorting.eventsPerTransaction == 50)
        #expect(try settings([], environment: ["HEARTH_LOOP_IMPORT_EVENTS_PER_TRANSACTION": "51"]).habitPorting.eventsPerTransaction == 51)
        #expect(try settings(["--loop-import-events-per-transaction", "1"]).habitPorting.eventsPerTransaction == 1)
        #expect(throws: UsageError.self) { try settings(["--loop-import-events-per-transaction", "0"]) }
        #expect(try settings(["--loop-import-events-per-transaction", "100000"]).habitPorting.eventsPerTransaction == 100_000)
        #expect(throws: UsageError.self) { try settings(["--loop-import-events-per-transaction", "100001"]) }
    }
}
