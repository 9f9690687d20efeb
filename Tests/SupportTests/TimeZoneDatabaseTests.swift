import Support
import Testing

/// The system's time zone database (`tzdata`), read by name.
struct TimeZoneDatabaseTests {
    @Test(arguments: ["Europe/Paris", "America/Argentina/Buenos_Aires", "Etc/GMT+5", "UTC", "America/Port-au-Prince"])
    func knowsTheZonesOfTheDatabase(name: String) {
        #expect(TimeZoneDatabase.contains(name))
    }

    @Test(arguments: [
        "", "Europe/Nowhere", "zone.tab", "tzdata.zi", "Europe", "../zoneinfo/Europe/Paris", "Europe/./Paris", "/Europe/Paris",
        "Europe/Paris/", "right/Europe/Paris", "posix/Europe/Paris", "Europe/Paris ", "Europe/Pa ris", String(repeating: "a", count: 65),
    ])
    func refusesAnythingThatIsNotAZoneFileOfTheDatabase(name: String) {
        #expect(!TimeZoneDatabase.contains(name))
    }
}
