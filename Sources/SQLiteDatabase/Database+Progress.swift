internal import CSQLite3

extension Database {
    /// Runs `body`, calling `tick` about every `interval` while SQLite works for it (the
    /// statements `body` runs, their triggers and foreign key actions), so that a long write can
    /// show how far it has come. `tick` runs on this thread in the middle of a statement: it
    /// must not use the connection, except to read `changedRowCount(of:)`.
    /// - Throws: what `body` throws.
    public func reportingProgress<T>(
        every interval: Duration, to tick: () -> Void, _ body: () throws -> T
    ) rethrows -> T {
        try withoutActuallyEscaping(tick) { tick in
            let outer = progressTicker
            progressTicker = ProgressTicker(interval: interval, tick: tick)
            installProgressHandler()
            defer {
                progressTicker = outer
                if outer == nil { sqlite3_progress_handler(handle, 0, nil, nil) }
            }
            return try body()
        }
    }

    /// How many virtual machine steps SQLite takes between two looks at the clock: a few
    /// microseconds of work, so that looking costs nothing measurable.
    private static let stepsBetweenLooks: Int32 = 4096

    private func installProgressHandler() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_progress_handler(
            handle, Self.stepsBetweenLooks,
            { context in
                guard let context else { return 0 }
                Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().progressTicker?
                    .tickIfDue()
                // Zero: go on (anything else would interrupt the statement).
                return 0
            }, context)
    }
}

/// Calls a tick when its interval has passed since the last one (`Database.reportingProgress`).
final class ProgressTicker {
    private let interval: Duration
    private let tick: () -> Void
    private let clock = ContinuousClock()
    private var due: ContinuousClock.Instant

    init(interval: Duration, tick: @escaping () -> Void) {
        self.interval = interval
        self.tick = tick
        due = clock.now + interval
    }

    func tickIfDue() {
        guard clock.now >= due else { return }
        // Set first: a tick that ran SQL on the connection would not tick again inside itself.
        due = .now + .seconds(3600)
        tick()
        // From after the tick: a slow one (a redraw) does not make the next come at once.
        due = clock.now + interval
    }
}
