// Time zones for the fuzz targets that expand recurrences (recurrence-parser, ics-parser): listed
// in their `sources`, compiled into each.
import FoundationEssentials

/// A few zones with unusual transitions, read from the system's files once per process.
let fuzzZones: [String: TimeZoneRules] = {
    var zones: [String: TimeZoneRules] = [:]
    for name in ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia"] {
        guard let bytes = FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + name),
            let zone = TimeZoneRules(identifier: name, tzif: Array(bytes))
        else { fatalError("no tzdata for \(name)") }
        zones[name] = zone
    }
    return zones
}()
