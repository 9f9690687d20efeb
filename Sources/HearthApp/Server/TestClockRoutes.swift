import FoundationEssentials
import HearthHTTP
import HearthServices

/// `POST /_test/clock`, served only with `--test-endpoints`: moves the server's one clock (every
/// service's) forward to the instant the body gives in seconds since 1970 (UTC), so an end-to-end test
/// can complete a chore at a chosen local time (the last minute of a month in a household's time zone)
/// without sleeping. The clock never goes back: an earlier instant leaves it as it is. Answers the time
/// the clock reads then, in seconds since 1970 with milliseconds. The job scheduler is woken, so jobs
/// that came due with the move run now (`GET /_test/jobs/idle` waits for them).
struct TestClockRoutes {
    let clock: ShiftableClock
    let jobs: JobQueue

    /// Adds the route.
    func register(in router: inout Router) {
        router.post("/_test/clock") { [clock, jobs] request, responder in
            guard let seconds = Double(String(decoding: request.body, as: UTF8.self).filter { !$0.isWhitespace }) else {
                responder.send(.text("the body must be seconds since 1970", status: .badRequest))
                return
            }
            let now = clock.advance(to: Date(timeIntervalSince1970: seconds))
            jobs.wake()
            responder.send(.text(String(Int64((now.timeIntervalSince1970 * 1000).rounded()))))
        }
    }
}
