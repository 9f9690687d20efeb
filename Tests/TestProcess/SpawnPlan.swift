import CSystem
import Glibc

/// What `posix_spawn` needs for one child: its file actions (redirections), its attributes
/// (signal mask and dispositions) and the pipes made for it. Owns every descriptor it created
/// until `spawn` hands the test's ends over; released before that (a failed start), it closes them.
final class SpawnPlan {
    private let executable: String
    private var actions = posix_spawn_file_actions_t()
    private var attributes = posix_spawnattr_t()
    /// The child's ends of the pipes: closed in the test process once the child has them.
    private var childEnds: [Int32] = []
    /// The test's ends of the pipes: handed to the caller by a successful `spawn`.
    private var parentEnds: [Int32] = []

    init(executable: String) throws {
        self.executable = executable
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        // An empty mask and default dispositions for every signal: the child must not inherit
        // what a test thread blocks (Dispatch and pool threads block SIGTERM and others) or what
        // the test process ignores (SIGPIPE), which exec would otherwise carry over.
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        try check("posix_spawnattr_setsigmask", posix_spawnattr_setsigmask(&attributes, &none))
        try check("posix_spawnattr_setsigdefault", posix_spawnattr_setsigdefault(&attributes, &all))
        try check("posix_spawnattr_setflags", posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)))
    }

    deinit {
        for descriptor in childEnds + parentEnds { _ = close(descriptor) }
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
    }

    /// Arranges the child's standard input (`target` 0) as `input` says; returns the test's end
    /// of the pipe for `.pipe`.
    func redirect(_ input: ChildProcess.Input, to target: Int32) throws -> Int32? {
        switch input {
        case .inherit: return nil
        case .nullDevice: try open("/dev/null", O_RDONLY, as: target)
        case .file(let path): try open(path, O_RDONLY, as: target)
        case .pipe: return try pipe(childReads: true, as: target)
        }
        return nil
    }

    /// Arranges the child's standard output (`target` 1) or standard error (`target` 2) as
    /// `output` says; returns the test's end of the pipe for `.pipe`. Standard output must be
    /// arranged before standard error, which `.standardOutput` copies.
    func redirect(_ output: ChildProcess.Output, to target: Int32) throws -> Int32? {
        switch output {
        case .inherit: return nil
        case .nullDevice: try open("/dev/null", O_WRONLY, as: target)
        case .file(let path): try open(path, O_WRONLY | O_CREAT | O_TRUNC, as: target)
        case .pipe: return try pipe(childReads: false, as: target)
        case .standardOutput:
            precondition(target == STDERR_FILENO, ".standardOutput is a destination for standard error only")
            try check("posix_spawn_file_actions_adddup2", posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, target))
        }
        return nil
    }

    /// Starts the child and closes its pipe ends here.
    /// - Returns: the child's process ID.
    func spawn(arguments: [String], environment: [String: String], searchPath: Bool) throws -> pid_t {
        // Last action: close everything but 0, 1 and 2 (dup2 above already placed the pipes).
        try check("posix_spawn_file_actions_addclosefrom_np", csystem_spawn_file_actions_addclosefrom(&actions, 3))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for string in argv + envp { free(string) } }
        var pid: pid_t = 0
        let code = searchPath
            ? posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
            : posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        for descriptor in childEnds { _ = close(descriptor) }
        childEnds.removeAll()
        try check(searchPath ? "posix_spawnp" : "posix_spawn", code)
        parentEnds.removeAll()
        return pid
    }

    private func open(_ path: String, _ flags: Int32, as target: Int32) throws {
        try check("posix_spawn_file_actions_addopen", posix_spawn_file_actions_addopen(&actions, target, path, flags, 0o644))
    }

    /// A close-on-exec pipe whose child end the child gets as `target`.
    private func pipe(childReads: Bool, as target: Int32) throws -> Int32 {
        var ends: [Int32] = [-1, -1]
        _ = try systemCall("pipe2", of: executable) { csystem_pipe_cloexec(&ends) }
        let (childEnd, parentEnd) = childReads ? (ends[0], ends[1]) : (ends[1], ends[0])
        childEnds.append(childEnd)
        parentEnds.append(parentEnd)
        // dup2 clears close-on-exec on the copy, so the child keeps exactly this one.
        try check("posix_spawn_file_actions_adddup2", posix_spawn_file_actions_adddup2(&actions, childEnd, target))
        return parentEnd
    }

    /// Throws for the nonzero error number the posix_spawn family returns (they do not set errno).
    private func check(_ operation: String, _ code: Int32) throws {
        guard code == 0 else { throw ChildProcessError(code: code, operation: operation, executable: executable) }
    }
}
