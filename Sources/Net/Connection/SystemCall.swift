import CSystem
import Glibc

/// The one way `Net` makes system calls: retries `EINTR`, reports `EAGAIN` as "would
/// block" (nil), and turns other failures into the errno for the caller to describe.
enum SystemCall {
    /// What a call did.
    enum Outcome {
        /// It succeeded with this (non-negative) result.
        case done(Int)
        /// A non-blocking descriptor is not ready.
        case wouldBlock
        /// It failed with this errno.
        case failed(Int32)
    }

    /// Runs `call` (which returns -1 and sets errno on failure) until it is not interrupted.
    static func run(_ call: () -> Int) -> Outcome {
        while true {
            let result = call()
            if result >= 0 { return .done(result) }
            let code = csystem_errno()
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
            return .failed(code)
        }
    }

    /// The system's text for `code`, e.g. `Connection refused`.
    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Waits until `descriptor` is ready for `events` (`POLLIN`, `POLLOUT`) or has an error or
    /// hang-up to report (which the following call will surface).
    /// - Throws: `NetworkError` `.timedOut` when `deadline` passes first.
    static func wait(_ descriptor: Int32, for events: Int16, until deadline: Deadline, peer: String) throws(NetworkError) {
        while true {
            guard let timeout = deadline.pollTimeout else {
                throw NetworkError(code: .timedOut, peer: peer, detail: events == Int16(POLLIN) ? "waiting to receive" : "waiting to send")
            }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            switch run({ Int(poll(&entry, 1, timeout)) }) {
            case .done(let ready) where ready > 0: return
            case .done, .wouldBlock: continue
            case .failed(let code): throw NetworkError(code: .connectionClosed, peer: peer, detail: "poll: \(reason(code))")
            }
        }
    }
}
