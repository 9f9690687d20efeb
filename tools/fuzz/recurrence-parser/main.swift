// libFuzzer entry point for HearthDomain's recurrence parser and engine, compiled together with
// Sources/HearthDomain/Recurrence and the time zone rules by tools/fuzz/run-all (see `sources`).
//
// Any input must be answered without a trap or a hang: refused with a RecurrenceError that
// explains itself, or accepted as a rule whose canonical text parses to the same rule and whose
// occurrences come in strictly increasing order, each one an occurrence.
import FoundationEssentials

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecurrenceParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let limits = RecurrenceLimits(maximumTextLength: 2048, maximumExceptionDates: 64)
    let home = fuzzZones["Europe/Berlin"]!
    let rule: RecurrenceRule
    do {
        rule = try RecurrenceRule.parse(text, defaultTimeZone: home, limits: limits, timeZones: { fuzzZones[$0] })
    } catch {
        precondition(!error.message.isEmpty, "a refusal explains itself")
        precondition((error.part?.count ?? 0) <= 40, "a refusal never echoes a long input")
        return 0
    }
    precondition(text.utf8.count <= limits.maximumTextLength, "the text limit is enforced")
    guard let again = try? RecurrenceRule.parse(rule.text, defaultTimeZone: home, timeZones: { fuzzZones[$0] }) else {
        preconditionFailure("the canonical text of an accepted rule parses")
    }
    precondition(again == rule && again.text == rule.text, "the canonical text is a fixed point")
    let dates = rule.occurrences(after: .distantPast, limit: 20)
    precondition(zip(dates, dates.dropFirst()).allSatisfy { $0 < $1 }, "occurrences come in strictly increasing order")
    precondition(dates == again.occurrences(after: .distantPast, limit: 20), "the canonical text means the same")
    for date in dates.prefix(3) {
        precondition(rule.isOccurrence(date), "each occurrence is one")
        precondition(rule.occurrences(after: date, limit: 1) == [date], "a walk from an occurrence starts with it")
    }
    return 0
}
