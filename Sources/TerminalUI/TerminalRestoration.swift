internal import CNCursesW
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Gives the terminal back to the shell however the process ends: normal
/// exit, a termination signal, or a crash.
///
/// Signal handlers cannot reach the backend object (they run on whatever
/// thread the signal hits, with no context), so the little they need is
/// global: whether curses is on, and the signal dispositions to go back to.
/// What a handler does is kept to writing fixed bytes and `endwin`.
enum TerminalRestoration {
    /// The signals that end the process (termination and crash signals).
    ///
    /// A handler restores the terminal, puts back the disposition it found
    /// and raises the signal again: by default the process dies of it as if
    /// nothing had caught it (so the shell reports it as usual); a crash goes
    /// on to the Swift runtime's backtracer, whose report then lands on a
    /// usable terminal. A signal that was ignored stays ignored (`nohup`).
    static let handledSignals: [Int32] = [
        SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP,
    ]

    /// The escape sequences that switch off mouse reporting and bracketed paste.
    static let modesOff: StaticString = "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[?2004l"

    /// Whether curses owns the terminal now (between `newterm`/resume and `endwin`).
    private static let cursesIsActive = Atomic<Bool>(false)
    private static let exitHandlerInstalled = Atomic<Bool>(false)

    /// The dispositions to restore, by signal number; each is written before
    /// its signal's handler is installed, and only read by that handler.
    nonisolated(unsafe) private static let previousActions: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(NSIG))
        actions.initialize(repeating: sigaction(), count: Int(NSIG))
        return actions
    }()

    /// Records that curses now owns the terminal.
    static func cursesDidStart() {
        cursesIsActive.store(true, ordering: .sequentiallyConsistent)
    }

    /// Switches off the terminal modes and leaves curses, once; safe to call
    /// from a signal handler or at exit.
    static func restore() {
        guard cursesIsActive.exchange(false, ordering: .sequentiallyConsistent) else { return }
        write(STDOUT_FILENO, modesOff.utf8Start, modesOff.utf8CodeUnitCount)
        endwin()
    }

    /// Installs the handlers, and an exit handler the first time.
    ///
    /// Called before `newterm`, so that curses, finding the signals caught,
    /// does not install its own handlers for them.
    static func install() {
        if !exitHandlerInstalled.exchange(true, ordering: .sequentiallyConsistent) {
            atexit { TerminalRestoration.restore() }
        }
        var handler = sigaction()
        handler.__sigaction_handler.sa_handler = { signal in
            TerminalRestoration.restoreAndRedeliver(signal)
        }
        sigemptyset(&handler.sa_mask)
        handler.sa_flags = 0
        for signal in handledSignals {
            let previous = previousActions + Int(signal)
            sigaction(signal, nil, previous)
            let isIgnored =
                unsafeBitCast(previous.pointee.__sigaction_handler.sa_handler, to: Int.self)
                == unsafeBitCast(SIG_IGN, to: Int.self)
            if !isIgnored {
                sigaction(signal, &handler, nil)
            }
        }
    }

    /// Puts back the dispositions `install` replaced.
    static func uninstall() {
        for signal in handledSignals {
            sigaction(signal, previousActions + Int(signal), nil)
        }
    }

    /// Runs `body` with SIGTSTP at its default action (stop), so that
    /// sending it stops the process instead of running curses' own handler.
    static func withDefaultStopAction(_ body: () -> Void) {
        var defaultAction = sigaction()
        defaultAction.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&defaultAction.sa_mask)
        var previous = sigaction()
        sigaction(SIGTSTP, &defaultAction, &previous)
        body()
        sigaction(SIGTSTP, &previous, nil)
    }

    private static func restoreAndRedeliver(_ signal: Int32) {
        restore()
        guard signal > 0, signal < NSIG else { return }
        sigaction(signal, previousActions + Int(signal), nil)
        // Delivered when this handler returns, with the restored disposition.
        raise(signal)
    }
}
