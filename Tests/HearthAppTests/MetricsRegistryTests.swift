@testable import HearthApp
import Testing

@Suite struct MetricsRegistryTests {
    @Test func rendersCountersInTheTextExpositionFormat() {
        let registry = MetricsRegistry()
        let requests = registry.counter("http_requests_total", help: "Requests.", labels: ["route", "status"])
        requests.increment(["/healthz", "200"])
        requests.increment(["/healthz", "200"])
        requests.increment(["/x\"y", "404"])
        #expect(registry.render() == """
            # HELP http_requests_total Requests.
            # TYPE http_requests_total counter
            http_requests_total{route="/healthz",status="200"} 2
            http_requests_total{route="/x\\"y",status="404"} 1

            """)
    }

    @Test func rendersCumulativeHistogramBucketsWithSumAndCount() {
        let registry = MetricsRegistry()
        let latency = registry.histogram("latency_seconds", help: "Latency.", buckets: [0.1, 1])
        latency.observe(0.05)
        latency.observe(0.5)
        latency.observe(3)
        #expect(registry.render() == """
            # HELP latency_seconds Latency.
            # TYPE latency_seconds histogram
            latency_seconds_bucket{le="0.1"} 1
            latency_seconds_bucket{le="1"} 2
            latency_seconds_bucket{le="+Inf"} 3
            latency_seconds_sum 3.55
            latency_seconds_count 3

            """)
    }

    @Test func readsComputedGaugesAtScrapeTime() {
        let registry = MetricsRegistry()
        let box = Counter(name: "unused", help: "", labelNames: [])
        registry.gauge("open_connections", help: "Open.\nNow.") { [(labels: [], value: box.value())] }
        box.increment(by: 7)
        #expect(registry.render() == "# HELP open_connections Open.\\nNow.\n# TYPE open_connections gauge\nopen_connections 7\n")
    }
}
