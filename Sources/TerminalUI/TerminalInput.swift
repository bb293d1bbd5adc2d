import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Reads what the terminal sends, in large chunks, and notices window size
/// changes, waiting for both in one `poll`.
///
/// Curses reads input one byte per system call (plus a `poll` per byte when
/// a timeout is set), which makes a pasted 10 MB take a minute; reading
/// chunks takes a fraction of a second. Key sequences are then decoded by
/// `InputDecoder` rather than by curses' terminfo tables.
///
/// SIGWINCH arrives as a byte on a pipe (the self-pipe trick), so a resize
/// wakes the same `poll` that waits for keys.
@MainActor
final class TerminalInput {
    /// What one wait produced.
    enum Reading: Equatable {
        /// Scalars the terminal sent (possibly none, when a read ended inside a character).
        case scalars([Unicode.Scalar])
        /// The window size changed.
        case resized
        /// Nothing arrived within the timeout.
        case timedOut
        /// A signal cut the wait short; wait again.
        case interrupted
        /// The terminal is gone (hang-up, read error).
        case closed
    }

    /// The pipe's write end, for the signal handler (-1 when none).
    nonisolated private static let resizePipe = Atomic<Int32>(-1)

    private let inputDescriptor: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var previousResizeAction = sigaction()
    private var utf8 = UTF8Stream()
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Starts watching `inputDescriptor` and SIGWINCH.
    ///
    /// Call before `newterm`: curses, finding SIGWINCH caught, leaves it alone.
    ///
    /// - Returns: nil when no pipe can be made.
    init?(inputDescriptor: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            // Never block: not the handler writing, not the drain reading.
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        self.inputDescriptor = inputDescriptor
        wakeRead = ends[0]
        wakeWrite = ends[1]
        Self.resizePipe.store(wakeWrite, ordering: .sequentiallyConsistent)
        var handler = sigaction()
        handler.__sigaction_handler.sa_handler = { _ in TerminalInput.signalResize() }
        sigemptyset(&handler.sa_mask)
        handler.sa_flags = SA_RESTART
        sigaction(SIGWINCH, &handler, &previousResizeAction)
    }

    /// Stops watching SIGWINCH and closes the pipe.
    func close() {
        sigaction(SIGWINCH, &previousResizeAction, nil)
        Self.resizePipe.store(-1, ordering: .sequentiallyConsistent)
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
    }

    /// Waits at most `timeout` (forever when nil) for input or a resize.
    func read(timeout: Duration?) -> Reading {
        var watched = [
            pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&watched, 2, timeout.map(Self.pollMilliseconds) ?? -1)
        if ready == 0 { return .timedOut }
        guard ready > 0 else { return errno == EINTR ? .interrupted : .closed }
        if watched[1].revents != 0 {
            drainWakePipe()
            return .resized
        }
        let count = buffer.withUnsafeMutableBytes {
            Glibc.read(inputDescriptor, $0.baseAddress, $0.count)
        }
        if count > 0 {
            var scalars: [Unicode.Scalar] = []
            scalars.reserveCapacity(count)
            buffer.withUnsafeBytes {
                utf8.decode(UnsafeRawBufferPointer(rebasing: $0[..<count]), into: &scalars)
            }
            return .scalars(scalars)
        }
        return count < 0 && (errno == EINTR || errno == EAGAIN) ? .interrupted : .closed
    }

    /// The terminal's size from the kernel, or nil when it cannot tell.
    func windowSize() -> Size? {
        var size = winsize()
        guard ioctl(inputDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0
        else { return nil }
        return Size(width: Int(size.ws_col), height: Int(size.ws_row))
    }

    private func drainWakePipe() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while bytes.withUnsafeMutableBytes({ Glibc.read(wakeRead, $0.baseAddress, $0.count) }) > 0 {
        }
    }

    /// The SIGWINCH handler: one byte down the pipe, nothing else.
    nonisolated private static func signalResize() {
        let savedErrno = errno
        let descriptor = resizePipe.load(ordering: .relaxed)
        if descriptor >= 0 {
            var byte: UInt8 = 1
            _ = Glibc.write(descriptor, &byte, 1)
        }
        errno = savedErrno
    }

    /// A poll timeout in whole milliseconds, rounded up so a short wait does not spin.
    private static func pollMilliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let milliseconds =
            seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds))
    }
}
