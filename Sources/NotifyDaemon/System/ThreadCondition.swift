import Glibc

/// A mutex and its condition variable: how the event loop and the daemon's own threads hand work to each other.
///
/// `@unchecked Sendable`: it holds only the pthread mutex and condition, which are made for use from any thread; the
/// pointers to them never change.
final class ThreadCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() {
        pthread_mutex_lock(mutex)
    }

    func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Releases the lock until a broadcast, then takes it again; the caller holds it.
    func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Wakes every waiting thread.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// `body` with the lock held.
    func withLock<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Ends `thread` (from ``Threads/start(_:)``): `stop` runs with the lock held and sets what the thread's loop
    /// checks, the thread is woken and joined. Nothing happens when `thread` is `nil`; it is `nil` afterwards.
    func end(_ thread: inout pthread_t?, stop: () -> Void) {
        guard let running = thread else { return }
        thread = nil
        withLock {
            stop()
            broadcast()
        }
        pthread_join(running, nil)
    }
}
