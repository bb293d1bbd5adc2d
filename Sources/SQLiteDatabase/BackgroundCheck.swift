internal import CSQLite3
import Foundation

/// A check of a database file that runs on a read-only connection and a thread of its own, so
/// that the program goes on with its own connection meanwhile: an integrity check reads the
/// whole file, which takes a while on a big one.
///
/// ```swift
/// let check = BackgroundCheck(path: "notes.db") { db in
///     let result = try db.fetchAll(String.self, "PRAGMA quick_check")
///     guard result == ["ok"] else { throw Damaged() }
/// }
/// check.start()
/// try check.wait()  // returns once the check passed; rethrows what it threw
/// ```
///
/// It starts when `start()` is called or when something first waits for it, so that a program
/// can first do what must be quick: reading a whole file evicts the processor's caches, which
/// slows down the other thread too. Give it to `DatabaseQueue.holdCommits(until:)` so that
/// nothing changes the file before it has passed.
public final class BackgroundCheck: @unchecked Sendable {
    private let path: String
    private let check: @Sendable (Database) throws -> Void
    // @unchecked: the variables below are only touched while `condition` is locked.
    private let condition = NSCondition()
    private var isStarted = false
    /// How the check ended; nil while it runs.
    private var outcome: Result<Void, any Error>?
    /// The check's connection while it is open, for `cancel()` to interrupt.
    private var connection: Database?
    private var isCancelled = false

    /// Prepares `check`, to run on a new read-only connection to the file at `path`.
    /// - Parameters:
    ///   - path: The database file to check.
    ///   - check: Runs inside one read transaction; what it throws is the check's failure (so
    ///     is a failure to open the connection).
    public init(path: String, _ check: @escaping @Sendable (Database) throws -> Void) {
        self.path = path
        self.check = check
    }

    /// Starts the check on a thread of its own, unless it has started already.
    public func start() {
        let starting = condition.withLock {
            defer { isStarted = true }
            return !isStarted
        }
        if starting { Thread { [self] in run() }.start() }
    }

    /// Whether the check has ended, passed or not. Never waits.
    public var isFinished: Bool {
        condition.withLock { outcome != nil }
    }

    /// Whether the check has ended and passed. Never waits.
    public var hasPassed: Bool {
        condition.withLock { if case .success = outcome { true } else { false } }
    }

    /// Waits for the check to end (starting it if it has not started).
    /// - Throws: What the check threw.
    public func wait() throws {
        start()
        try condition.withLock { () -> Result<Void, any Error> in
            while true {
                if let outcome { return outcome }
                condition.wait()
            }
        }.get()
    }

    /// Stops the check if it has not ended (it then fails with `SQLiteError` `interrupt`), and
    /// waits until its connection is closed.
    public func cancel() {
        condition.withLock {
            isCancelled = true
            if !isStarted {
                isStarted = true
                outcome = .failure(Self.cancelled)
            }
            // Again and again: SQLite forgets an interrupt that comes between two statements.
            while outcome == nil {
                if let connection { sqlite3_interrupt(connection.handle) }
                _ = condition.wait(until: Date().addingTimeInterval(0.01))
            }
        }
    }

    private static let cancelled = SQLiteError(code: .interrupt, message: "check cancelled")

    private func run() {
        let result = Result<Void, any Error> {
            let database = Database(handle: try DatabaseFile.openForReading(path: path))
            let started = condition.withLock {
                if !isCancelled { connection = database }
                return !isCancelled
            }
            guard started else { throw Self.cancelled }
            try database.execute("BEGIN DEFERRED")
            defer { try? database.execute("COMMIT") }
            try check(database)
        }
        // The connection closes before the outcome is known: whoever waited for it may then
        // close the last other connection and have SQLite remove the -wal and -shm files.
        condition.withLock {
            connection = nil
            outcome = result
            condition.broadcast()
        }
    }
}
