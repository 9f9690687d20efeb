import Glibc

// The attributes to put back when a signal ends the process while the terminal is raw.
// `nonisolated(unsafe)` is safe here: the variable is written once, by `RawTerminal.enable()`,
// before the signal handlers that read it are installed, and never written again; the main
// thread and the handlers only read it.
nonisolated(unsafe) private var attributesToRestore = termios()

/// The controlling terminal on standard input/output in raw mode for the explorer's line
/// editor: no echo, no line buffering, no signals from Ctrl-C/Ctrl-Z (the editor handles
/// those keys), no CR/LF translation on input; output processing stays on so `\n` starts a
/// new line. `restore()` (also run when SIGINT, SIGTERM, SIGHUP or SIGQUIT arrive) puts the
/// terminal back as it was. Used from one thread.
final class RawTerminal {
    private let original: termios
    private var isRaw = false

    /// The terminal on standard input, or nil when standard input is not a terminal.
    init?() {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return nil }
        var attributes = termios()
        guard tcgetattr(STDIN_FILENO, &attributes) == 0 else { return nil }
        original = attributes
    }

    deinit { restore() }

    /// Switches to raw mode and installs the signal handlers that undo it.
    func enable() {
        attributesToRestore = original
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            Glibc.signal(signal) { received in
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &attributesToRestore)
                Glibc.signal(received, SIG_DFL)
                raise(received)
            }
        }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { controls in
            controls[Int(VMIN)] = 1
            controls[Int(VTIME)] = 0
        }
        isRaw = tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0
    }

    /// Puts the terminal back as it was and the signal handlers back to their defaults.
    func restore() {
        guard isRaw else { return }
        var attributes = original
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &attributes)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { Glibc.signal(signal, SIG_DFL) }
        isRaw = false
    }

    /// Blocks until input arrives; nil at end of input or on a read error.
    func read() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count > 0 { return Array(buffer[..<count]) }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }

    /// Writes `text` to the terminal at once.
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
