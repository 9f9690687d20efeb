import Glibc

/// How many test databases (each with its store's connections) may be open at once in this test
/// process: Swift Testing starts every test of a run together, and a PostgreSQL cluster admits a
/// bounded number of connections (`max_connections`), so tests past the limit wait their turn
/// (suspended, not blocking a thread). `HEARTH_TEST_POSTGRES_DATABASES` sets it (default 16).
actor TestDatabaseGate {
    /// The gate of this process.
    static let shared = TestDatabaseGate(limit: getenv("HEARTH_TEST_POSTGRES_DATABASES").flatMap { Int(String(cString: $0)) } ?? 16)

    private var available: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) {
        available = max(1, limit)
    }

    /// Runs `body` once a place is free, and frees it afterwards.
    nonisolated func withPlace<T>(_ body: () async throws -> T) async throws -> T {
        await enter()
        do {
            let value = try await body()
            await leave()
            return value
        } catch {
            await leave()
            throw error
        }
    }

    private func enter() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func leave() {
        if waiters.isEmpty {
            available += 1
        } else {
            waiters.removeFirst().resume()
        }
    }
}
