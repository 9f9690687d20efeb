import HearthServices
import Synchronization

/// The scheduler's families on `/metrics`: per job kind, what is due, running and dead and how
/// far behind the oldest due job is (read from the jobs table before each scrape, so they
/// count every process's work), and the attempts this process finished by outcome.
enum JobMetrics {
    /// Registers the families of `scheduler`'s kinds in `registry`.
    static func register(_ scheduler: JobScheduler, in registry: MetricsRegistry) {
        let kinds = scheduler.kinds
        let latest = Mutex<[JobKind: JobStatistics]>([:])
        registry.refreshBeforeScrape { [queue = scheduler.queue] in
            // A failed read leaves the previous values: the scrape still answers.
            if let statistics = try? await queue.statistics() {
                latest.withLock { $0 = statistics }
            }
        }
        let gauges: [(name: String, help: String, value: @Sendable (JobStatistics) -> Double)] = [
            ("hearth_jobs_due", "Pending jobs whose due time has come, by kind.", { Double($0.due) }),
            ("hearth_jobs_running", "Jobs leased by a worker, by kind.", { Double($0.running) }),
            ("hearth_jobs_dead", "Jobs given up (failed permanently or out of attempts) and kept for inspection, by kind.", { Double($0.dead) }),
            ("hearth_jobs_lag_seconds", "How long the oldest due job has waited past its due time, by kind; 0 when none is due.", { $0.lagSeconds }),
        ]
        for gauge in gauges {
            registry.gauge(gauge.name, help: gauge.help, labels: ["kind"]) {
                let statistics = latest.withLock { $0 }
                return kinds.map { kind in (labels: [kind.rawValue], value: gauge.value(statistics[kind] ?? JobStatistics())) }
            }
        }
        let attempts = registry.counter(
            "hearth_job_attempts_total", help: "Job attempts this process finished, by kind and outcome (done, retry, dead).",
            labels: ["kind", "outcome"])
        for kind in kinds {
            for outcome in JobScheduler.Outcome.allCases { attempts.increment([kind.rawValue, outcome.rawValue], by: 0) }
        }
        scheduler.onFinish { job, outcome in attempts.increment([job.kind.rawValue, outcome.rawValue]) }
    }
}
