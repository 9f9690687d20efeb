/// How a leaderboard ranks and shares out its counts (FR-56).
public enum ScoreRanking {
    /// Standard competition ranks ("1224") of `counts`, which must be in descending order: equal
    /// counts share a rank, and the rank after a tie skips the places the tie took (5, 5, 3 ranks
    /// 1, 1, 3).
    public static func ranks(ofDescending counts: [Int]) -> [Int] {
        var ranks: [Int] = []
        ranks.reserveCapacity(counts.count)
        for (position, count) in counts.enumerated() {
            ranks.append(position > 0 && counts[position - 1] == count ? ranks[position - 1] : position + 1)
        }
        return ranks
    }

    /// `count`'s share of `total` in percent, to two decimal places rounded half up (1 of 3 is
    /// 33.33, 2 of 3 is 66.67); 0 when `total` is 0. Shares rounded this way may add up to a
    /// hundredth more or less than 100.
    public static func percentage(_ count: Int, of total: Int) -> DecimalAmount {
        guard total > 0, count > 0 else { return DecimalAmount(tenThousandths: 0) }
        let hundredths = (count * 20_000 + total) / (2 * total)
        return DecimalAmount(tenThousandths: Int64(hundredths) * 100)
    }
}
