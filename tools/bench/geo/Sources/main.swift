// The geo benchmark's in-process side (tools/bench/geo/run.py): `habitEventsNear`'s own query path,
// `GeoService.habitEventsNear` (the cover, `HabitEventsNear`'s statement, the exact filter), over the
// benchmark's database without HTTP or GraphQL, once per cover range limit.
//
// Usage: GeoBench DATABASE EMAIL PASSWORD QUERIES.json CAP[,CAP…]
// The viewer signs in with EMAIL and PASSWORD through `AccountService` (the way a request's viewer
// comes to be); QUERIES.json is a list of [latitude, longitude] centres, each asked for 5 km, scope
// BOTH, the first 100. One untimed pass warms the caches, then each CAP in the order given answers
// every centre. Prints one JSON line per CAP: each query's wall and CPU seconds, the pass's CPU seconds,
// each query's event ids (nearest first), and its covers' ranges, precisions and area against the
// circle's.
import Foundation
import HearthDomain
import HearthServices
import HearthStore
import Support

/// Queued mail goes nowhere: signing in here sends none worth keeping.
struct DiscardedMail: MailQueue {
    func enqueue(_ mail: OutgoingMail, in database: Database) throws -> Int64 { 0 }
}

/// The CPU time the process has used, in seconds.
func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

let arguments = CommandLine.arguments
guard arguments.count == 6 else {
    FileHandle.standardError.write(Data("usage: GeoBench DATABASE EMAIL PASSWORD QUERIES.json CAP[,CAP…]\n".utf8))
    exit(2)
}
let pool = try DatabasePool(path: arguments[1])
let centres = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: arguments[4]))) as! [[Double]]
let caps = arguments[5].split(separator: ",").map { Int($0)! }
let radius = 5_000.0

let configuration = AccountsConfiguration()
let accounts = AccountService(
    configuration: configuration, pool: pool,
    accessTokens: AccessTokens(
        key: SecureRandom.bytes(32), issuer: configuration.issuer, audience: configuration.audience, lifetime: configuration.accessTokenLifetime),
    mail: AccountMail(outbox: DiscardedMail(), baseURL: try PublicBaseURL("https://hearth.bench"), links: LinkTokens(key: SecureRandom.bytes(32))),
    commonPasswords: [], logger: Logger(label: "geo-bench", level: .critical, sink: DiscardingLogSink()))
let session = try await accounts.login(email: arguments[2], password: arguments[3], deviceLabel: "geo bench", clientAddress: "127.0.0.1").1
let viewer = try await accounts.authenticate(accessToken: session.accessToken)

/// Every centre's answer from `service`, each timed on the wall clock and on the process's CPU
/// clock (the query runs on this thread when a reader is idle, so the second leaves out the time
/// the machine's other load kept it waiting).
func pass(_ service: GeoService) async throws -> (seconds: [Double], cpuSeconds: [Double], ids: [[String]]) {
    var seconds: [Double] = []
    var cpuSeconds: [Double] = []
    var ids: [[String]] = []
    for centre in centres {
        let started = ContinuousClock.now
        let cpuStarted = processCPUSeconds()
        let found = try await service.habitEventsNear(NearbyQuery(latitude: centre[0], longitude: centre[1], radius: radius), viewer: viewer)
        cpuSeconds.append(processCPUSeconds() - cpuStarted)
        let took = ContinuousClock.now - started
        seconds.append(Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18)
        ids.append(found.map(\.eventID))
    }
    return (seconds, cpuSeconds, ids)
}

/// The service reading at most `cap` ranges per query.
func service(cap: Int) -> GeoService {
    var geo = GeoConfiguration()
    geo.maximumCoverRanges = cap
    return GeoService(configuration: geo, pool: pool)
}

_ = try await pass(service(cap: GeoConfiguration().maximumCoverRanges))
for cap in caps {
    let cpuStart = processCPUSeconds()
    let (seconds, cpuSeconds, ids) = try await pass(service(cap: cap))
    let cpu = processCPUSeconds() - cpuStart
    let covers = centres.map { GeohashCover(circle: GeoCircle(latitude: $0[0], longitude: $0[1], radius: radius), maximumRanges: cap) }
    let line: [String: Any] = [
        "cap": cap, "seconds": seconds, "cpu_seconds": cpuSeconds, "cpu_s": cpu, "ids": ids,
        "ranges": covers.map(\.ranges.count), "precisions": covers.map(\.precision),
        "area_ratio": covers.map { $0.area / (Double.pi * radius * radius) },
    ]
    print(String(decoding: try JSONSerialization.data(withJSONObject: line), as: UTF8.self))
}
