internal import CSQLite3
import Foundation
import Synchronization

/// One connection, used by one closure at a time: the way to share a database across threads and
/// tasks.
///
/// ```swift
/// let db = try DatabaseQueue(path: "notes.db")
/// try db.write { db in try db.execute("INSERT INTO t(name) VALUES (?)", ["x"]) }
/// ```
public final class DatabaseQueue: DatabaseWriter, @unchecked Sendable {
    // @unchecked: `database` is only touched while `lock` is held.
    /// The connection; nil once closed.
    private var database: Database?
    private let lock = NSLock()
    private let observers = Mutex<[UInt64: @Sendable (DatabaseChange) -> Void]>([:])
    private let nextObserverID = Atomic<UInt64>(0)
    private let lastDataVersion = Atomic<Int64>(0)
    /// The check that commits changing the file wait for, until it has passed.
    private let commitHold = Mutex<BackgroundCheck?>(nil)
    /// The file's path, or nil for an in-memory database.
    public let path: String?

    /// The queues whose closure is running in the current task or thread (nesting detection).
    @TaskLocal private static var activeQueues: Set<ObjectIdentifier> = []

    /// Opens a private in-memory database (foreign keys on).
    public init() throws {
        let database = Database(handle: try DatabaseFile.openInMemory())
        try database.execute("PRAGMA foreign_keys = ON")
        self.database = database
        path = nil
    }

    /// Opens or creates a database file: new files are created with mode 0600; WAL journal,
    /// foreign keys on, a 5 s busy timeout.
    ///
    /// - Throws: `DatabaseOpenError` saying what is wrong with the path; the file is untouched.
    public convenience init(path: String) throws {
        try self.init(path: path, accepting: { _ in })
    }

    /// Opens or creates a database file like `init(path:)`, after `accept` has looked at it.
    ///
    /// Switching a file to WAL rewrites its header, so a program that may refuse a file (not its
    /// kind of database, written by a newer version) decides in `accept`, before that happens.
    ///
    /// - Parameters:
    ///   - path: The database file, created when it does not exist.
    ///   - accept: Runs on the connection before it is configured; it must only read. What it
    ///     throws is rethrown, with the file closed and untouched.
    /// - Throws: `DatabaseOpenError` saying what is wrong with the path, or what `accept` threw.
    public init(path: String, accepting accept: (Database) throws -> Void) throws {
        let database = Database(handle: try DatabaseFile.open(path: path))
        try accept(database)
        try DatabaseFile.configure(database.handle, path: path)
        self.database = database
        self.path = path
        lastDataVersion.store(try dataVersion(), ordering: .relaxed)
    }

    deinit { commitHold.withLock { $0 }?.cancel() }

    /// Closes the connection now, as releasing the queue would (something may keep the queue
    /// alive): SQLite folds the WAL into the file and removes the -wal and -shm files when no
    /// other connection has the file open. A check that holds commits is stopped first. Reads
    /// and writes after it throw `SQLiteError` misuse.
    public func close() {
        commitHold.withLock { $0 }?.cancel()
        lock.withLock { database = nil }
    }

    // MARK: Transactions

    public func read<T>(_ block: (Database) throws -> T) throws -> T {
        try exclusively { database in
            try database.execute("BEGIN DEFERRED")
            defer { try? database.execute("COMMIT") }
            return try block(database)
        }
    }

    public func write<T>(_ block: (Database) throws -> T) throws -> T {
        try write(busyTimeout: nil, block)
    }

    /// Runs `block` in a write transaction like `write(_:)`, waiting at most `timeout` (instead
    /// of the connection's 5 s) for another connection's write lock: an interactive program
    /// keeps drawing and keeps what could not be written for a later try.
    /// - Throws: `SQLiteError` `.busy` when the lock was not free in time; nothing was written.
    public func write<T>(waitingAtMost timeout: Duration, _ block: (Database) throws -> T) throws
        -> T
    {
        let milliseconds =
            timeout.components.seconds * 1000
            + timeout.components.attoseconds / 1_000_000_000_000_000
        return try write(busyTimeout: Int32(clamping: max(0, milliseconds)), block)
    }

    private func write<T>(busyTimeout: Int32?, _ block: (Database) throws -> T) throws -> T {
        let (result, changed) = try exclusively { database in
            if let busyTimeout {
                // Only taking the lock waits: once held, the transaction's statements do not.
                database.setBusyTimeout(milliseconds: busyTimeout)
                defer {
                    database.setBusyTimeout(milliseconds: DatabaseFile.busyTimeoutMilliseconds)
                }
                try database.execute("BEGIN IMMEDIATE")
            } else {
                try database.execute("BEGIN IMMEDIATE")
            }
            database.clearChangedTables()
            database.notifyBeginWrite()
            do {
                let held = try pendingCheck.map { try WriteDuringCheck(check: $0, database) }
                let result = try block(database)
                // SQLite ended it inside the block (an `OR ROLLBACK` conflict, `RAISE(ROLLBACK)`,
                // a `COMMIT` or `ROLLBACK` of the block's own): what the block wrote after it
                // ran outside any transaction, and observers must not write as if inside one.
                guard database.isInsideTransaction else { throw Self.transactionEndedInsideBlock }
                try database.notifyWillCommit()
                try held?.admit(database)
                try database.execute("COMMIT")
                // Built only for observers: reading the tables' names into sets costs a 1-row
                // action more than its statements' own work.
                let changed = hasObservers ? database.changeSoFar : nil
                database.clearChangedTables()
                database.notifyCommit()
                return (result, changed)
            } catch {
                if database.isInsideTransaction { try? database.execute("ROLLBACK") }
                database.clearChangedTables()
                database.notifyRollback()
                throw error
            }
        }
        if let changed, !changed.tables.isEmpty { notify(changed) }
        return result
    }

    /// What `write` throws when the transaction ended inside its block.
    static let transactionEndedInsideBlock = SQLiteError(
        code: .error,
        message: "the transaction ended inside the write block (an OR ROLLBACK conflict, "
            + "RAISE(ROLLBACK), or the block's own COMMIT or ROLLBACK): what the block wrote "
            + "after that was not part of it")

    // The async forms run the closure on the calling task, so task-local values (the undo
    // engine's current barrier) reach it; the lock is held only while synchronous code runs.
    public func read<T: Sendable>(_ block: @Sendable (Database) throws -> T) async throws -> T {
        try readSync(block)
    }

    public func write<T: Sendable>(_ block: @Sendable (Database) throws -> T) async throws -> T {
        try writeSync(block)
    }

    private func readSync<T>(_ block: (Database) throws -> T) throws -> T { try read(block) }
    private func writeSync<T>(_ block: (Database) throws -> T) throws -> T { try write(block) }

    /// Runs `block` with the connection outside any transaction (for statements that cannot run
    /// inside one, such as `VACUUM` or `PRAGMA journal_mode`).
    ///
    /// Waits first for a check that holds commits (`holdCommits(until:)`): what the block
    /// changes is not seen.
    public func withoutTransaction<T>(_ block: (Database) throws -> T) throws -> T {
        try pendingCheck?.wait()
        return try exclusively(block)
    }

    // MARK: Holding commits

    /// Holds back, until `check` has passed, every commit of `write` that changes the file (rows,
    /// triggers' writes included, or the schema): `write` waits for the check before `COMMIT`,
    /// and when the check fails it rolls back and throws what the check threw. Reads, and writes
    /// that change nothing, go on meanwhile.
    ///
    /// For a check that must pass before the file is changed but need not delay the program's
    /// start, such as an integrity check of a big file.
    public func holdCommits(until check: BackgroundCheck) {
        commitHold.withLock { $0 = check }
    }

    /// The check that commits wait for (see `holdCommits(until:)`); nil when there is none or
    /// once it has passed.
    public var pendingCheck: BackgroundCheck? {
        commitHold.withLock { hold in
            if hold?.hasPassed == true { hold = nil }
            return hold
        }
    }

    /// Holds the lock for `block`; a nested call from inside a closure of this queue is an error,
    /// not a deadlock.
    private func exclusively<T>(_ block: (Database) throws -> T) throws -> T {
        let me = ObjectIdentifier(self)
        guard !Self.activeQueues.contains(me) else {
            throw SQLiteError(
                code: .misuse,
                message: "nested read or write on the same DatabaseQueue: use the Database the "
                    + "outer closure received")
        }
        lock.lock()
        defer { lock.unlock() }
        guard let database else {
            throw SQLiteError(code: .misuse, message: "the database is closed")
        }
        return try Self.$activeQueues.withValue(Self.activeQueues.union([me])) {
            try block(database)
        }
    }

    // MARK: Observation

    public func observe(_ observer: @escaping @Sendable (DatabaseChange) -> Void)
        -> DatabaseObservation
    {
        let id = nextObserverID.add(1, ordering: .relaxed).newValue
        observers.withLock { $0[id] = observer }
        return DatabaseObservation { [weak self] in
            _ = self?.observers.withLock { $0.removeValue(forKey: id) }
        }
    }

    /// Checks whether another connection (another process) committed since the last check, and
    /// if so tells the observers. The app calls it on its own schedule (e.g. every half second).
    /// - Returns: whether an external commit was seen.
    @discardableResult
    public func pollForExternalChanges() throws -> Bool {
        let (version, tables) = try exclusively { database -> (Int64, Set<String>) in
            let version = try database.dataVersion()
            let tables = try database.fetchAll(
                String.self, "SELECT name FROM sqlite_schema WHERE type = 'table'")
            return (version, Set(tables))
        }
        guard lastDataVersion.exchange(version, ordering: .relaxed) != version else { return false }
        notify(DatabaseChange(tables: tables, isExternal: true))
        return true
    }

    private func dataVersion() throws -> Int64 {
        try exclusively { try $0.dataVersion() }
    }

    private var hasObservers: Bool { observers.withLock { !$0.isEmpty } }

    private func notify(_ change: DatabaseChange) {
        let current = observers.withLock { Array($0.values) }
        for observer in current { observer(change) }
    }
}
