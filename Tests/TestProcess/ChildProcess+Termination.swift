extension ChildProcess {
    /// How a child ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        /// It called `exit` (or returned from `main`) with this code, 0...255.
        case exited(Int32)
        /// A signal ended it (`SIGKILL`, or `SIGTERM` it did not handle, …).
        case signaled(Int32)

        /// Decodes a `waitpid` status. Only exits and deaths by signal are ever reported (no
        /// `WUNTRACED`/`WCONTINUED`), so the low seven bits are 0 for an exit (`WIFEXITED`, the
        /// code in the next byte) and the signal number otherwise (`WTERMSIG`; bit 7 flags a core dump).
        init(waitStatus: Int32) {
            let signal = waitStatus & 0x7f
            self = signal == 0 ? .exited((waitStatus >> 8) & 0xff) : .signaled(signal)
        }

        /// The exit code, or the signal number for a child a signal ended (what Foundation's
        /// `terminationStatus` reports).
        public var status: Int32 {
            switch self {
            case .exited(let code), .signaled(let code): code
            }
        }

        /// `exited with 3` or `killed by signal 9`.
        public var description: String {
            switch self {
            case .exited(let code): "exited with \(code)"
            case .signaled(let signal): "killed by signal \(signal)"
            }
        }
    }
}
