import Foundation

/// SplitMix64: a small random number generator that repeats its sequence for a seed, so a
/// randomized test that fails can be run again with the seed it printed.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// True with probability `probability`.
    public mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    public mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[Int.random(in: 0..<elements.count, using: &self)]
    }

    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    /// The seed of a randomized test: `HEARTH_TEST_SEED` when set (to repeat a failure), else `fallback`.
    public static func seed(fallback: UInt64) -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["HEARTH_TEST_SEED"], let seed = UInt64(text) { return seed }
        return fallback
    }
}
