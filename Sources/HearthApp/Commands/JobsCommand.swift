import FoundationEssentials
import HearthServices
import HearthStore
import Support

/// `hearth jobs list|show|retry`: read the jobs table of a database (what is due, running,
/// done or dead, and why the last attempt failed) and revive a dead job once what made it
/// fail is mended.
enum JobsCommand: Command {
    static let name = "jobs"
    static let summary = "List background jobs, show one, or retry a dead one"
    static let usage = """
    Usage: hearth jobs list [--state STATE] [--kind KIND] [--limit N] [--database PATH]
           hearth jobs show ID [--database PATH]
           hearth jobs retry ID [--database PATH]

    'list' prints the newest jobs: id, state, attempts, due time, kind and last error.
    'show' prints one job with its payload and lease. 'retry' makes a dead job due now
    with its attempts counted afresh; a running server picks it up within its
    --job-poll-interval. Jobs are pending (waiting for their due time), running (leased
    by a worker until the lease expires), done, or dead (failed permanently or out of
    --job-max-attempts).
    """
    static let options: [OptionSpec] = [
        .value("--state", "STATE", help: "'list' shows only jobs in this state: pending, running, done or dead."),
        .value("--kind", "KIND", help: "'list' shows only jobs of this kind, such as mail.deliver or retention.prune."),
        .value("--limit", "N", default: "20", help: "How many jobs 'list' prints, newest first."),
    ] + DatabaseSettings.options

    static func run(_ options: ParsedOptions, environment: [String: String]) throws -> Int32 {
        let settings = try DatabaseSettings(options)
        switch options.positional.first {
        case "list" where options.positional.count == 1:
            let limit = try options.integer("--limit", in: 1...100_000) ?? 20
            let state = try options.choice("--state", Dictionary(uniqueKeysWithValues: Job.State.allCases.map { ($0.rawValue, $0) }))
            let kind = options.string("--kind").map(JobKind.init(rawValue:))
            let jobs = try settings.readExisting { try JobQueue.jobs(state: state, kind: kind, limit: limit, in: $0) }
            print(listing(jobs), terminator: "")
            return 0
        case "show" where options.positional.count == 2:
            let id = try options.id(at: 1, of: "a job")
            guard let job = try settings.readExisting({ try JobQueue.job(id: id, in: $0) }) else { return noJob(id) }
            print(details(job), terminator: "")
            return 0
        case "retry" where options.positional.count == 2:
            let id = try options.id(at: 1, of: "a job")
            do {
                guard let job = try settings.writeExisting({ try JobQueue.retry(id: id, at: Date(), in: $0) }) else { return noJob(id) }
                print("job \(job.id) is pending again, due \(CommandOutput.timestamp(job.dueAt))")
                return 0
            } catch let refusal as JobRetryRefusal {
                StandardStreams.writeError("hearth jobs: \(refusal)\n")
                return 1
            }
        default:
            throw UsageError(message: "expected 'list', 'show ID' or 'retry ID'")
        }
    }

    /// One line per job, under a header line.
    static func listing(_ jobs: [Job]) -> String {
        guard !jobs.isEmpty else { return "no jobs\n" }
        return CommandOutput.header(state: "STATE", time: "DUE", rest: "KIND / LAST ERROR") + jobs.map { job in
            CommandOutput.row(job.id, job.state.rawValue, job.attempts, job.dueAt, job.kind.rawValue + (job.lastError.map { " / " + $0 } ?? ""))
        }.joined()
    }

    /// Every field of `job`, one per line.
    static func details(_ job: Job) -> String {
        var lines = [
            "Id: \(job.id)",
            "Kind: \(job.kind.rawValue)",
            "State: \(job.state.rawValue)",
            "Attempts: \(job.attempts)",
            "Due: \(CommandOutput.timestamp(job.dueAt))",
            "Created: \(CommandOutput.timestamp(job.createdAt))",
            "Updated: \(CommandOutput.timestamp(job.updatedAt))",
        ]
        if let key = job.dedupeKey { lines.append("Dedupe key: \(key)") }
        if let owner = job.leaseOwner, let expiry = job.leaseExpiresAt {
            lines.append("Lease: \(owner) until \(CommandOutput.timestamp(expiry))")
        }
        if let error = job.lastError { lines.append("Last error: \(error)") }
        lines.append("Payload: \(job.payload)")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func noJob(_ id: Int64) -> Int32 {
        StandardStreams.writeError("hearth jobs: no job \(id)\n")
        return 1
    }
}
