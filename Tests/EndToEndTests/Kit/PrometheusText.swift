import HearthHTTP

extension HTTPTestClient.Response {
    /// The value of one series in a `/metrics` body, named with its labels exactly as rendered
    /// (`hearth_http_connections_refused_total{reason="max_connections"}`); nil when absent.
    func metric(_ series: String) -> Double? {
        text.split(separator: "\n").lazy
            .first { $0.hasPrefix(series + " ") }
            .flatMap { $0.split(separator: " ").last }
            .flatMap { Double($0) }
    }
}
