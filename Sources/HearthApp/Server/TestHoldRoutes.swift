import Dispatch
import HearthHTTP

/// `POST /_test/hold`, served only with `--test-endpoints`: holds the event loop that runs it,
/// as a CPU-heavy request does (a large document being validated), so the shutdown tests can put
/// such a request in flight.
///
/// - Body `until-shutdown`: blocks its loop until the graceful shutdown has begun, then answers
///   200 `released` (the response must say `Connection: close`).
/// - Body `forever`: blocks its loop and never answers; the process must still exit within
///   `--shutdown-grace` and its allowance.
struct TestHoldRoutes {
    let shutdown: ShutdownFlag

    /// Adds the route.
    func register(in router: inout Router) {
        router.post("/_test/hold") { [shutdown] request, responder in
            switch String(decoding: request.body, as: UTF8.self) {
            case "until-shutdown":
                shutdown.wait()
                responder.send(.text("released"))
            case "forever":
                DispatchSemaphore(value: 0).wait()
            default:
                responder.send(.text("the body must be until-shutdown or forever", status: .badRequest))
            }
        }
    }
}
