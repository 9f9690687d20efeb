import Foundation
import Glibc
import HearthHTTP
import Synchronization
import TestProcess

/// nginx (Debian's `nginx-light`) in front of several `hearth serve` processes on loopback, as an
/// operator runs it: round robin over the instances, WebSocket upgrades passed through, a request
/// that cannot reach an instance (refused connection) tried on the next one. Started as the test's
/// child (`daemon off`) with its configuration, pid file, logs and temporary files in a directory
/// of its own, on a free port; ``stop()`` ends it and removes the directory.
final class LoadBalancer {
    /// Errors starting nginx.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Debian's nginx.
    static let executable = "/usr/sbin/nginx"

    let directory: URL
    let port: Int
    private let process: ChildProcess

    /// Starts nginx in front of the instances listening on 127.0.0.1 at `upstreamPorts`.
    init(upstreamPorts: [Int]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The port is free when chosen and may be taken before nginx binds it: try a few.
        var started: (ChildProcess, Int)?
        var lastLog = ""
        for _ in 0..<5 where started == nil {
            let port = try Self.freePort()
            let configuration = directory.appendingPathComponent("nginx.conf")
            try Self.configuration(directory: directory.path, port: port, upstreamPorts: upstreamPorts)
                .write(to: configuration, atomically: true, encoding: .utf8)
            let process = try ChildProcess(
                Self.executable, ["-e", "stderr", "-p", directory.path, "-c", configuration.path],
                standardOutput: .nullDevice, standardError: .pipe)
            let (isListening, startLog) = Self.waitUntilListening(process)
            if isListening {
                started = (process, port)
            } else {
                process.send(SIGKILL)
                process.waitForExit()
                lastLog = startLog
            }
        }
        guard let (process, port) = started else { throw Failure(description: "nginx did not start; its log:\n\(lastLog)") }
        self.process = process
        self.port = port
    }

    /// The load balancer's base URL.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The load balancer's address.
    var address: SocketAddress { SocketAddress(host: "127.0.0.1", port: port) }

    /// Stops nginx at once and removes its directory.
    func stop() {
        process.send(SIGKILL)
        process.waitForExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The configuration: everything nginx writes is under `directory`.
    static func configuration(directory: String, port: Int, upstreamPorts: [Int]) -> String {
        let servers = upstreamPorts.map { "        server 127.0.0.1:\($0) max_fails=1 fail_timeout=30s;" }.joined(separator: "\n")
        return """
            daemon off;
            worker_processes 1;
            pid \(directory)/nginx.pid;
            error_log \(directory)/error.log info;
            error_log stderr notice;
            events { worker_connections 1024; }
            http {
                access_log \(directory)/access.log;
                client_body_temp_path \(directory)/client_body;
                proxy_temp_path \(directory)/proxy;
                fastcgi_temp_path \(directory)/fastcgi;
                uwsgi_temp_path \(directory)/uwsgi;
                scgi_temp_path \(directory)/scgi;
                upstream hearth {
            \(servers)
                    keepalive 16;
                }
                map $http_upgrade $connection_upgrade { default upgrade; '' ''; }
                server {
                    listen 127.0.0.1:\(port);
                    location / {
                        proxy_pass http://hearth;
                        proxy_http_version 1.1;
                        proxy_set_header Upgrade $http_upgrade;
                        proxy_set_header Connection $connection_upgrade;
                        proxy_set_header Host $host;
                        proxy_buffering off;
                        proxy_read_timeout 1h;
                    }
                }
            }

            """
    }

    /// A loopback TCP port nobody listens on now (the kernel's choice for port 0).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "bind to a free port failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether nginx came to listen: it logs "start worker processes" to standard error once its
    /// listening sockets are open, and exits when it cannot open them (the port taken meanwhile).
    /// A thread of its own reads standard error to its end, so nginx never blocks on a full pipe.
    /// Returns what it logged until then.
    private static func waitUntilListening(_ process: ChildProcess) -> (Bool, String) {
        guard let standardError = process.standardError else { return (false, "") }
        let outcome = Mutex<Bool?>(nil)
        let log = Mutex<[String]>([])
        let decided = DispatchSemaphore(value: 0)
        @Sendable func decide(_ listening: Bool) {
            let isFirst = outcome.withLock { outcome in
                defer { outcome = outcome ?? listening }
                return outcome == nil
            }
            if isFirst { decided.signal() }
        }
        Thread.detachNewThread {
            while let line = try? standardError.readLine() {
                if outcome.withLock({ $0 == nil }) { log.withLock { $0.append(line) } }
                if line.contains("start worker processes") { decide(true) }
            }
            decide(false)
        }
        // A hang guard: nginx either starts or exits within moments.
        let isListening = decided.wait(timeout: .now() + 60) == .success && outcome.withLock { $0 } == true
        return (isListening, log.withLock { $0.joined(separator: "\n") })
    }
}
