// libFuzzer entry point for HearthDomain's calendar file parser (calendars imported from .ics
// files) and the expansion of their events, compiled with Sources/HearthDomain/CalendarImport,
// the recurrence engine and the time zone rules by tools/fuzz/run-all (see `sources`).
//
// Any input must be answered without a trap or a hang: refused with a RecurrenceError that
// names a line of the input (or none, for the file as a whole) and explains itself, or accepted
// as a file whose stored form reads the same, and whose occurrences over a year come sorted,
// each ending no earlier than it starts.
import FoundationEssentials

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCalendarFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let limits = CalendarFileLimits(maximumBytes: 16_384, maximumEvents: 64, maximumOccurrences: 500)
    let file: CalendarFile
    do {
        file = try CalendarFile.parse(bytes, limits: limits, timeZones: { fuzzZones[$0] })
    } catch {
        precondition(!error.message.isEmpty, "a refusal explains itself")
        precondition((error.part?.count ?? 0) <= 40, "a refusal never echoes a long input")
        let lineCount = 1 + bytes.count(where: { $0 == UInt8(ascii: "\n") })
        precondition(error.line.map { $0 >= 1 && $0 <= lineCount } ?? true, "a refusal names a line of the input")
        return 0
    }
    precondition(bytes.count <= limits.maximumBytes && file.events.count <= limits.maximumEvents, "the limits are enforced")
    guard let stored = try? CalendarFile.parse(stored: file.timeZoneText, events: file.events.map(\.text), timeZones: { fuzzZones[$0] }) else {
        preconditionFailure("the stored form of an accepted file parses")
    }
    precondition(stored.events.map(\.uid) == file.events.map(\.uid), "the stored form holds the same events")
    let from = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    let to = from.addingTimeInterval(366 * 86_400)
    let home = fuzzZones["Europe/Berlin"]!
    guard let occurrences = try? file.occurrences(from: from, to: to, timeZone: home, limit: limits.maximumOccurrences) else { return 0 }
    precondition(zip(occurrences, occurrences.dropFirst()).allSatisfy { $0.start <= $1.start }, "occurrences come sorted")
    precondition(occurrences.allSatisfy { $0.end >= $0.start }, "an occurrence ends no earlier than it starts")
    precondition((try? stored.occurrences(from: from, to: to, timeZone: home, limit: limits.maximumOccurrences)) == occurrences, "the stored form means the same")
    _ = BusyPeriod.merging(occurrences)
    return 0
}
