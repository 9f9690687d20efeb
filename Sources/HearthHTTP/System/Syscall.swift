import CSystem
import Glibc

/// The outcome of a non-blocking system call that did not fail.
enum SyscallResult: Equatable {
    /// The call completed and returned this (non-negative) value.
    case done(Int)
    /// The call would have blocked (`EAGAIN`/`EWOULDBLOCK`); wait for readiness and retry.
    case wouldBlock
}

/// Runs a system call the one way every call in this module is run: retries on `EINTR`, reports `EAGAIN` as
/// `.wouldBlock`, and throws a `SystemError` naming the call for any other failure.
@inline(__always)
func syscall(_ name: StaticString, _ body: () -> Int) throws(SystemError) -> SyscallResult {
    while true {
        let result = body()
        if result >= 0 { return .done(result) }
        let code = csystem_errno()
        switch code {
        case EINTR:
            continue
        case EAGAIN, EWOULDBLOCK:
            return .wouldBlock
        default:
            throw SystemError(code: code, call: "\(name)")
        }
    }
}

/// `syscall` for calls that cannot block: returns the value directly.
@inline(__always)
@discardableResult
func blockingSyscall(_ name: StaticString, _ body: () -> Int) throws(SystemError) -> Int {
    switch try syscall(name, body) {
    case .done(let value): return value
    case .wouldBlock: throw SystemError(code: EAGAIN, call: "\(name)")
    }
}

/// Closes a descriptor we own. A failing close leaves nothing to recover (the descriptor is released either
/// way on Linux), so it is not retried and not reported.
func closeDescriptor(_ fd: Int32) {
    _ = Glibc.close(fd)
}
