// The chores benchmark's part (a), Swift side: parse recurrence rules and expand each one year
// ahead (`RecurrenceRule.occurrences(after:before:limit:)`), single-threaded, on the process's
// CPU clock. tools/bench/chores/run.py runs it beside python-dateutil doing the same work.
//
// Usage: RecurrenceBench RULES.json NOW [SECONDS]
// RULES.json is a list of {"text": …, "zone": …}; NOW is seconds since 1970. Passes over all
// rules repeat for at least SECONDS of CPU time (default 2) after one warm-up pass (which loads
// the zones). Prints `name key=value …` lines: `parse_expand` (parse and expand each rule, the
// work dateutil's side does) and `expand` (rules parsed beforehand).
import Foundation
import HearthDomain

/// The CPU time the process has used, in seconds.
func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let now = Double(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: RecurrenceBench RULES.json NOW [SECONDS]\n".utf8))
    exit(2)
}
let minimumSeconds = arguments.count > 3 ? Double(arguments[3]) ?? 2 : 2
let entries = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: arguments[1]))) as! [[String: String]]
let start = Date(timeIntervalSince1970: now)
// dateutil's between(…, inc=True) includes its end: so does this one second more.
let end = Date(timeIntervalSince1970: now + 365 * 86_400 + 1)
let zones = Dictionary(uniqueKeysWithValues: Set(entries.map { $0["zone"]! }).map { ($0, TimeZoneRules.named($0)!) })

/// Parses and expands every rule; returns the occurrences found.
func parseAndExpand() throws -> Int {
    var total = 0
    for entry in entries {
        let rule = try RecurrenceRule.parse(entry["text"]!, defaultTimeZone: zones[entry["zone"]!]!)
        total += rule.occurrences(after: start, before: end, limit: 100_000).count
    }
    return total
}

/// Runs `pass` until `minimumSeconds` of CPU time have gone; returns the CPU seconds per pass,
/// the passes and the occurrences of one pass.
func measure(_ pass: () throws -> Int) rethrows -> (cpuSeconds: Double, passes: Int, occurrences: Int) {
    let occurrences = try pass()
    let cpuStart = processCPUSeconds()
    var passes = 0
    repeat {
        _ = try pass()
        passes += 1
    } while processCPUSeconds() - cpuStart < minimumSeconds
    return ((processCPUSeconds() - cpuStart) / Double(passes), passes, occurrences)
}

let whole = try measure(parseAndExpand)
print("parse_expand rules=\(entries.count) occurrences=\(whole.occurrences) cpu_s=\(whole.cpuSeconds) passes=\(whole.passes)")
let rules = try entries.map { try RecurrenceRule.parse($0["text"]!, defaultTimeZone: zones[$0["zone"]!]!) }
let expansion = measure { rules.reduce(0) { $0 + $1.occurrences(after: start, before: end, limit: 100_000).count } }
print("expand rules=\(rules.count) occurrences=\(expansion.occurrences) cpu_s=\(expansion.cpuSeconds) passes=\(expansion.passes)")
