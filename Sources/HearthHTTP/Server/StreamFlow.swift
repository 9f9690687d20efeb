import Glibc

/// Flow control of one streamed response body (``HTTPResponseBodyWriter``): counts the bytes the
/// producer has written and the connection has not yet handed to the socket, and lets a producer
/// on its own thread wait while more than ``limit`` of them are outstanding, so a slow client
/// holds the producer back instead of the server holding the whole body. Closing (the connection
/// went away, the body ended) wakes the producer for good.
///
/// `@unchecked Sendable`: every stored property is read and written only while `mutex` is held,
/// and the mutex and condition live at fixed addresses allocated here and freed in `deinit`.
final class StreamFlow: @unchecked Sendable {
    /// The most unsent bytes a waiting producer lets pile up.
    let limit: Int
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var unsent = 0
    private var isClosed = false

    init(limit: Int) {
        self.limit = limit
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Counts `count` bytes written (before they are handed to the loop, so the loop's count of
    /// sent bytes never runs ahead of it).
    func produced(_ count: Int) {
        pthread_mutex_lock(mutex)
        unsent += count
        pthread_mutex_unlock(mutex)
    }

    /// Blocks the calling thread until at most ``limit`` bytes are unsent; false once the flow is closed.
    func waitWhileBehind() -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while unsent > limit && !isClosed { pthread_cond_wait(condition, mutex) }
        return !isClosed
    }

    /// Counts `count` bytes handed to the socket (called on the connection's loop).
    func sent(_ count: Int) {
        pthread_mutex_lock(mutex)
        unsent = max(0, unsent - count)
        let wakes = unsent <= limit
        pthread_mutex_unlock(mutex)
        if wakes { pthread_cond_broadcast(condition) }
    }

    /// Ends the flow: waiting and later producers return at once, with false.
    func close() {
        pthread_mutex_lock(mutex)
        isClosed = true
        pthread_mutex_unlock(mutex)
        pthread_cond_broadcast(condition)
    }
}
