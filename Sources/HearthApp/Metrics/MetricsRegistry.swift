import Synchronization

/// The application's Prometheus metrics, rendered at `/metrics` in the text exposition
/// format (version 0.0.4).
///
/// Families are registered once at start; the hot path then only updates values under
/// a per-family lock. Gauges whose truth lives elsewhere (open connections, pool
/// statistics) are read by a closure at scrape time instead of being mirrored.
final class MetricsRegistry: Sendable {
    private let families = Mutex<[any MetricFamily]>([])
    private let refreshers = Mutex<[@Sendable () async -> Void]>([])

    /// Registers a counter family; `name` should end in `_total`.
    func counter(_ name: String, help: String, labels: [String] = []) -> Counter {
        register(Counter(name: name, help: help, labelNames: labels))
    }

    /// Registers a histogram family with cumulative `buckets` (upper bounds, ascending).
    func histogram(_ name: String, help: String, labels: [String] = [], buckets: [Double]) -> Histogram {
        register(Histogram(name: name, help: help, labelNames: labels, buckets: buckets))
    }

    /// Registers a gauge family whose samples `read` produces at scrape time, as (label values, value) pairs.
    func gauge(
        _ name: String, help: String, labels: [String] = [],
        read: @escaping @Sendable () -> [(labels: [String], value: Double)]
    ) {
        _ = register(ComputedMetric(name: name, help: help, type: "gauge", labelNames: labels, read: read))
    }

    /// Registers a counter family whose running totals live elsewhere and are read at scrape time.
    func counter(
        _ name: String, help: String, labels: [String] = [],
        read: @escaping @Sendable () -> [(labels: [String], value: Double)]
    ) {
        _ = register(ComputedMetric(name: name, help: help, type: "counter", labelNames: labels, read: read))
    }

    private func register<Family: MetricFamily>(_ family: Family) -> Family {
        families.withLock { $0.append(family) }
        return family
    }

    /// Registers work to run before each scrape: reading values whose source needs I/O (a
    /// database query), which a gauge's closure must not do, as it runs on the event loop.
    func refreshBeforeScrape(_ refresh: @escaping @Sendable () async -> Void) {
        refreshers.withLock { $0.append(refresh) }
    }

    /// Runs the refreshers, then renders: what `/metrics` answers.
    func scrape() async -> String {
        for refresh in refreshers.withLock({ $0 }) { await refresh() }
        return render()
    }

    /// The whole registry in the Prometheus text format, families in registration order.
    func render() -> String {
        var text = ""
        for family in families.withLock({ $0 }) {
            text += "# HELP \(family.name) \(PrometheusText.escapeHelp(family.help))\n"
            text += "# TYPE \(family.name) \(family.type)\n"
            family.render(into: &text)
        }
        return text
    }
}

/// A metric family that can render its samples.
protocol MetricFamily: Sendable {
    var name: String { get }
    var help: String { get }
    var type: String { get }
    func render(into text: inout String)
}

/// A monotonically increasing count per label combination.
final class Counter: MetricFamily {
    let name: String
    let help: String
    let labelNames: [String]
    var type: String { "counter" }
    private let values = Mutex<[[String]: Double]>([:])

    init(name: String, help: String, labelNames: [String]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
    }

    /// Adds `amount` (not negative) to the sample for `labels` (one value per label name, in order).
    func increment(_ labels: [String] = [], by amount: Double = 1) {
        precondition(labels.count == labelNames.count, "\(name) takes \(labelNames.count) label values")
        values.withLock { $0[labels, default: 0] += amount }
    }

    /// The current value for `labels`, zero when never incremented.
    func value(_ labels: [String] = []) -> Double { values.withLock { $0[labels] ?? 0 } }

    func render(into text: inout String) {
        for (labels, value) in values.withLock({ $0 }).sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            text += name + PrometheusText.labelSet(labelNames, labels) + " " + PrometheusText.number(value) + "\n"
        }
    }
}

/// Observations counted into cumulative buckets per label combination, with their sum and count.
final class Histogram: MetricFamily {
    private struct Series {
        var bucketCounts: [UInt64]
        var sum: Double = 0
        var count: UInt64 = 0
    }

    let name: String
    let help: String
    let labelNames: [String]
    let buckets: [Double]
    var type: String { "histogram" }
    private let series = Mutex<[[String]: Series]>([:])

    init(name: String, help: String, labelNames: [String], buckets: [Double]) {
        precondition(buckets == buckets.sorted() && !buckets.isEmpty, "\(name): buckets must ascend")
        self.name = name
        self.help = help
        self.labelNames = labelNames
        self.buckets = buckets
    }

    /// Records one observation for `labels`.
    func observe(_ value: Double, _ labels: [String] = []) {
        precondition(labels.count == labelNames.count, "\(name) takes \(labelNames.count) label values")
        let bucket = buckets.firstIndex { value <= $0 } ?? buckets.count
        series.withLock { all in
            var entry = all[labels] ?? Series(bucketCounts: Array(repeating: 0, count: buckets.count + 1))
            entry.bucketCounts[bucket] += 1
            entry.sum += value
            entry.count += 1
            all[labels] = entry
        }
    }

    func render(into text: inout String) {
        for (labels, entry) in series.withLock({ $0 }).sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            var cumulative: UInt64 = 0
            for (index, bound) in (buckets + [.infinity]).enumerated() {
                cumulative += entry.bucketCounts[index]
                let le = bound.isInfinite ? "+Inf" : PrometheusText.number(bound)
                text += name + "_bucket" + PrometheusText.labelSet(labelNames + ["le"], labels + [le])
                text += " \(cumulative)\n"
            }
            let set = PrometheusText.labelSet(labelNames, labels)
            text += name + "_sum" + set + " " + PrometheusText.number(entry.sum) + "\n"
            text += name + "_count" + set + " \(entry.count)\n"
        }
    }
}

/// A gauge or counter read from its source of truth at scrape time.
final class ComputedMetric: MetricFamily {
    let name: String
    let help: String
    let type: String
    let labelNames: [String]
    let read: @Sendable () -> [(labels: [String], value: Double)]

    init(
        name: String, help: String, type: String, labelNames: [String],
        read: @escaping @Sendable () -> [(labels: [String], value: Double)]
    ) {
        self.name = name
        self.help = help
        self.type = type
        self.labelNames = labelNames
        self.read = read
    }

    func render(into text: inout String) {
        for sample in read() {
            text += name + PrometheusText.labelSet(labelNames, sample.labels) + " " + PrometheusText.number(sample.value) + "\n"
        }
    }
}

/// Escaping and number formatting of the Prometheus text exposition format.
enum PrometheusText {
    static func labelSet(_ names: [String], _ values: [String]) -> String {
        guard !names.isEmpty else { return "" }
        let pairs = zip(names, values).map { name, value in "\(name)=\"\(escapeLabelValue(value))\"" }
        return "{" + pairs.joined(separator: ",") + "}"
    }

    /// Label values escape backslash, double quote and newline.
    static func escapeLabelValue(_ value: String) -> String { escape(value, quotes: true) }

    /// Help text escapes backslash and newline only.
    static func escapeHelp(_ help: String) -> String { escape(help, quotes: false) }

    private static func escape(_ value: String, quotes: Bool) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"" where quotes: escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
