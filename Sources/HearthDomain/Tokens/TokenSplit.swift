/// How a reward of whole tokens is shared among several members without creating or losing a
/// token: the largest-remainder (Hamilton) method.
///
/// The rule, as the README states it:
/// 1. Each member's exact share is `total × weight ÷ (sum of weights)`; everyone first gets its
///    whole part (rounded down).
/// 2. The tokens left over (fewer than the number of members) go one each to the members with the
///    largest remainders, the fractional parts of their exact shares.
/// 3. Members with equal remainders (in an equal split, everyone) are taken in member-id order,
///    starting at a member chosen by the split's ``seed`` (the completion's id) and wrapping
///    around, so over many completions the odd tokens go round the household instead of always
///    to the same child, while one completion always splits the same way.
///
/// So the shares always add up to `total` exactly, each share is its exact share rounded down or
/// up, and the result depends neither on the order members are listed in nor on anything but the
/// total, the weights and the seed.
public enum TokenSplit {
    /// Splits `total` tokens (not negative) among `weights` (member id → a positive weight; an
    /// equal split gives everyone 1). Members with no tokens are absent from the result, which is
    /// empty for an empty `weights`.
    /// - Precondition: `total >= 0`, every weight is positive, and `total × (sum of weights)` fits
    ///   in an `Int` (callers bound totals by a configured limit and weights by the household's size).
    public static func apportion(_ total: Int, weights: [String: Int], seed: String) -> [String: Int] {
        precondition(total >= 0, "a split shares a non-negative number of tokens")
        precondition(weights.values.allSatisfy { $0 > 0 }, "weights are positive")
        guard total > 0, !weights.isEmpty else { return [:] }
        let sum = weights.values.reduce(0, +)
        // Members in id order, so the result does not depend on the dictionary's order.
        let members = weights.keys.sorted()
        var shares: [String: Int] = [:]
        var remainders: [(member: String, remainder: Int, position: Int)] = []
        var handedOut = 0
        for (position, member) in members.enumerated() {
            // Exact arithmetic: the quota is whole + remainder / sum.
            let product = total * weights[member]!
            let whole = product / sum
            shares[member] = whole
            handedOut += whole
            remainders.append((member, product % sum, position))
        }
        let start = Int(fnv1a(seed) % UInt64(members.count))
        let order = remainders.sorted { lhs, rhs in
            if lhs.remainder != rhs.remainder { return lhs.remainder > rhs.remainder }
            // Equal remainders: member-id order rotated to begin at `start`.
            return (lhs.position - start + members.count) % members.count < (rhs.position - start + members.count) % members.count
        }
        for candidate in order.prefix(total - handedOut) {
            shares[candidate.member, default: 0] += 1
        }
        return shares.filter { $0.value > 0 }
    }

    /// The members a completion's tokens go to under `split`, each with weight 1 (the tokens are
    /// then shared equally by ``apportion(_:weights:seed:)``):
    /// - ``EarningsSplit/fallback``: the assignees; an unassigned chore's, whoever completed it;
    /// - ``EarningsSplit/equal``: everyone who took part, whoever completed it included;
    /// - ``EarningsSplit/completer``: whoever completed it.
    public static func recipients(
        _ split: EarningsSplit, completer: String, assignees: [String], participants: [String]
    ) -> [String: Int] {
        let members: [String] = switch split {
        case .fallback: assignees.isEmpty ? [completer] : assignees
        case .equal: participants + [completer]
        case .completer: [completer]
        }
        return Dictionary(members.map { ($0, 1) }, uniquingKeysWith: { first, _ in first })
    }

    /// The 64-bit FNV-1a hash of `text`'s UTF-8 bytes: stable across processes and platforms
    /// (unlike `Hasher`, which is seeded per process), so a split never changes once made.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
