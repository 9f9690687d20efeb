/// The options close enough to `input` to suggest, best first (graphql-js `suggestionList`):
/// within a Damerau–Levenshtein distance of 40 % of the input's length (case differences
/// count as 1), ties in natural order (`a2` before `a10`).
public func suggestionList(input: String, options: [String]) -> [String] {
    let inputScalars = Array(input.lowercased().unicodeScalars)
    let threshold = input.unicodeScalars.count * 4 / 10 + 1
    var scored: [(option: String, distance: Int)] = []
    for option in options {
        let distance: Int?
        if option == input {
            distance = 0
        } else {
            let optionScalars = Array(option.lowercased().unicodeScalars)
            distance = optionScalars == inputScalars
                ? 1 : lexicalDistance(inputScalars, optionScalars, threshold: threshold)
        }
        if let distance { scored.append((option, distance)) }
    }
    scored.sort { lhs, rhs in
        lhs.distance != rhs.distance ? lhs.distance < rhs.distance : naturalOrder(lhs.option, rhs.option)
    }
    return scored.map(\.option)
}

/// `" Did you mean "a", "b", or "c"?"` for up to five suggestions, `""` for none
/// (graphql-js `didYouMean`). `subject` such as `"the enum value"` is inserted before them.
public func didYouMean(_ suggestions: [String], subject: String? = nil) -> String {
    guard !suggestions.isEmpty else { return "" }
    var message = " Did you mean "
    if let subject { message += subject + " " }
    let quotedSuggestions = suggestions.prefix(5).map { "\"\($0)\"" }
    switch quotedSuggestions.count {
    case 1: return message + quotedSuggestions[0] + "?"
    case 2: return message + quotedSuggestions[0] + " or " + quotedSuggestions[1] + "?"
    default:
        return message + quotedSuggestions.dropLast().joined(separator: ", ") + ", or " + quotedSuggestions.last! + "?"
    }
}

/// The optimal-string-alignment distance of `a` and `b`, or `nil` when above `threshold`.
private func lexicalDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], threshold: Int) -> Int? {
    if abs(a.count - b.count) > threshold { return nil }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previousPrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        var rowMinimum = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                value = min(value, previousPrevious[j - 2] + 1)
            }
            current[j] = value
            rowMinimum = min(rowMinimum, value)
        }
        if rowMinimum > threshold { return nil }
        (previousPrevious, previous, current) = (previous, current, previousPrevious)
    }
    let distance = previous[b.count]
    return distance <= threshold ? distance : nil
}

/// Compares strings with runs of digits compared as numbers.
func naturalOrder(_ lhs: String, _ rhs: String) -> Bool {
    var left = lhs.unicodeScalars.makeIterator(), right = rhs.unicodeScalars.makeIterator()
    var a = left.next(), b = right.next()
    while let x = a, let y = b {
        if isDigit(x), isDigit(y) {
            var first = "", second = ""
            while let digit = a, isDigit(digit) { first.unicodeScalars.append(digit); a = left.next() }
            while let digit = b, isDigit(digit) { second.unicodeScalars.append(digit); b = right.next() }
            let numberA = Int(first) ?? 0, numberB = Int(second) ?? 0
            if numberA != numberB { return numberA < numberB }
            continue
        }
        if x != y { return x.value < y.value }
        a = left.next()
        b = right.next()
    }
    return a == nil && b != nil
}

private func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
