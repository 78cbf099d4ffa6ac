import Glibc

/// The daemon's own threads (the journal's writer, the store's committer): plain pthreads, no libdispatch pools.
enum Threads {
    /// Starts a thread that runs `body` with every signal blocked: signals belong to the event loop, which reads
    /// them from its signalfd. `nil` when the thread cannot be created.
    static func start(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
        final class Body {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        var id = pthread_t()
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let rc = pthread_create(
            &id, nil,
            { raw in
                guard let raw else { return nil }
                var all = sigset_t()
                sigfillset(&all)
                pthread_sigmask(SIG_BLOCK, &all, nil)
                Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
                return nil
            }, context)
        guard rc == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
        return id
    }
}
