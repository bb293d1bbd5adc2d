import SQLiteDatabase

/// How far a long undo, redo or take-back has come, for a progress display ("Undoing Delete
/// Author: 40,210 of 100,001 rows").
public struct ReplayProgress: Sendable, Equatable {
    /// The name of the step being replayed.
    public let name: String
    /// The rows written so far: the row changes SQLite made to tracked tables since the replay
    /// began (an application trigger's writes to them count too), never more than `rowsTotal`.
    public let rowsDone: Int
    /// The row changes the step recorded.
    public let rowsTotal: Int
    /// The time since the replay began.
    public let elapsed: Duration

    /// How often a replay reports its progress unless told otherwise: ten times a second.
    public static let defaultInterval = Duration.milliseconds(100)
}

/// Where and how often a replay reports its progress.
struct ProgressReport {
    let interval: Duration
    let report: (ReplayProgress) -> Void
}

/// Counts what a replay has written, for `ReplayProgress`.
struct ReplayMeter {
    let name: String
    let rowsTotal: Int
    private let tableNames: [String]
    private let changedBefore: Int
    private let start = ContinuousClock.now

    /// A meter for the replay of `entry`, begun now in the open transaction of `db`.
    init(entry: Int64, named name: String, tables: [Int64: TrackedTable], _ db: Database) throws {
        self.name = name
        tableNames = tables.values.map(\.name)
        rowsTotal = try UndoLogSchema.logRowCount(ofEntry: entry, db)
        changedBefore = db.changedRowCount(of: tableNames)
    }

    /// How far the replay has come. Reads no SQL: it runs in the middle of a statement.
    func progress(_ db: Database) -> ReplayProgress {
        let done = db.changedRowCount(of: tableNames) - changedBefore
        return ReplayProgress(
            name: name, rowsDone: min(max(done, 0), rowsTotal), rowsTotal: rowsTotal,
            elapsed: .now - start)
    }
}

extension UndoStack {
    /// `undo()`, telling `report` how far it has come about every `interval` (ten times a
    /// second by default) while it works; on this thread, in the middle of the replay's
    /// statements: `report` must not use the database.
    /// - Parameters:
    ///   - interval: the least time between two reports; `.zero` reports at every look SQLite
    ///     gives (every few thousand steps of its virtual machine), whatever the clock says.
    ///   - report: told the step's name, the rows written so far of the rows it recorded, and
    ///     the time since it began. A replay shorter than `interval` reports nothing.
    /// - Returns: what the undo did, or nil when there is nothing to undo.
    /// - Throws: `UndoError.replayFailed` (everything rolled back, the stack unchanged).
    @discardableResult
    public func undo(
        reportingEvery interval: Duration = ReplayProgress.defaultInterval,
        progress report: (ReplayProgress) -> Void
    ) throws -> UndoEvent? {
        try withoutActuallyEscaping(report) {
            try replay(from: .undo, reporting: ProgressReport(interval: interval, report: $0))
        }
    }

    /// `redo()`, telling `report` how far it has come, as `undo(reportingEvery:progress:)` does.
    /// - Returns: what the redo did, or nil when there is nothing to redo.
    /// - Throws: `UndoError.replayFailed` (everything rolled back, the stack unchanged).
    @discardableResult
    public func redo(
        reportingEvery interval: Duration = ReplayProgress.defaultInterval,
        progress report: (ReplayProgress) -> Void
    ) throws -> UndoEvent? {
        try withoutActuallyEscaping(report) {
            try replay(from: .redo, reporting: ProgressReport(interval: interval, report: $0))
        }
    }

    /// Runs `body` (the replay of `entry`, in the open transaction of `db`), telling `report`
    /// how far it has come; without `report`, just runs it.
    func metering<T>(
        _ entry: StackEntry?, reporting report: ProgressReport?, _ db: Database,
        _ body: () throws -> T
    ) throws -> T {
        guard let report, let entry else { return try body() }
        let meter = try ReplayMeter(
            entry: entry.id, named: entry.name, tables: engine.trackedTables.withLock { $0 }, db)
        return try db.reportingProgress(
            every: report.interval, to: { report.report(meter.progress(db)) }, body)
    }
}
