import HearthHTTP
import HearthStore

/// The endpoints operators and orchestrators use: liveness, readiness and metrics.
struct OperationsRoutes {
    let pool: any DatabaseReader
    let migrator: Migrator
    let metrics: ServerMetrics
    /// Who may read `/metrics`.
    let metricsAccess: MetricsAccess
    /// Whether a graceful shutdown has begun.
    let isDraining: @Sendable () -> Bool

    /// Adds `GET /healthz`, `GET /readyz` and `GET /metrics`.
    ///
    /// - `/healthz` answers `200 ok` while the process can serve HTTP at all.
    /// - `/readyz` answers 200 only when the database answers and carries exactly this binary's
    ///   migrations, and 503 once a graceful shutdown began (so load balancers drain first).
    /// - `/metrics` is the Prometheus text exposition, for those ``metricsAccess`` admits.
    func register(in router: inout Router) {
        router.get("/healthz") { _, responder in
            responder.send(.text("ok"))
        }
        router.on(.get, "/readyz") { [pool, migrator, isDraining] _ in
            if isDraining() {
                return .text("shutting down", status: .serviceUnavailable)
            }
            let ready = try await pool.read { database in try migrator.status(of: database).isUpToDate }
            return ready ? .text("ready") : .text("database migrations are not applied", status: .serviceUnavailable)
        }
        router.on(.get, "/metrics") { [metrics, metricsAccess] request in
            if let refusal = metricsAccess.refusal(for: request) { return refusal }
            return HTTPResponse(
                status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"],
                body: Array(await metrics.registry.scrape().utf8))
        }
    }
}
