/// A DURATION value of RFC 5545 §3.3.6 (`P1D`, `PT1H30M`, `P2W`, `-PT15M`), in seconds of the
/// wall clock: a day is 86,400 of them, added to a local time as calendar apps and Python's
/// `datetime` add it.
enum ICalendarDuration {
    /// The seconds `bytes` write, or nil when it is not a duration (or passes ten years).
    static func seconds(_ bytes: ArraySlice<UInt8>) -> Int? {
        var index = bytes.startIndex
        var sign = 1
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            if bytes[index] == UInt8(ascii: "-") { sign = -1 }
            index += 1
        }
        guard index < bytes.endIndex, bytes[index].asciiUppercased == UInt8(ascii: "P") else { return nil }
        index += 1
        var total = 0
        var inTime = false
        var sawNumber = false
        var lastUnit = 0
        while index < bytes.endIndex {
            if bytes[index].asciiUppercased == UInt8(ascii: "T") {
                guard !inTime else { return nil }
                inTime = true
                lastUnit = 0
                index += 1
                continue
            }
            var number = 0
            let digitsStart = index
            while index < bytes.endIndex, bytes[index].isASCIIDigit, index - digitsStart < 9 {
                number = number * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard index > digitsStart, index < bytes.endIndex else { return nil }
            // Units in order, each once: W or D before T; H, M, S after it.
            let units: [(unit: UInt8, seconds: Int)] =
                inTime ? [(UInt8(ascii: "H"), 3600), (UInt8(ascii: "M"), 60), (UInt8(ascii: "S"), 1)] : [(UInt8(ascii: "W"), 604_800), (UInt8(ascii: "D"), 86_400)]
            guard let rank = units.firstIndex(where: { $0.unit == bytes[index].asciiUppercased }), rank + 1 > lastUnit else { return nil }
            lastUnit = rank + 1
            total += number * units[rank].seconds
            guard total <= maximumSeconds else { return nil }
            sawNumber = true
            index += 1
        }
        return sawNumber ? sign * total : nil
    }

    /// Ten years: longer is a mistake, and bounds the arithmetic.
    static let maximumSeconds = 3650 * 86_400
}
