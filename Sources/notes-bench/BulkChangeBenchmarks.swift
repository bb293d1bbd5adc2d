import SQLiteDatabase
import SQLiteUndo

/// Capture and undo of a bulk UPDATE of every row, against the same statement untracked and
/// against SQLite's session extension, each in its own in-memory database with the same data;
/// and the floors of the engine's log format measured beside them (`BulkChangeFloors`).
@MainActor
struct BulkChangeBenchmarks {
    let config: BenchConfig
    private let tracked: DatabaseQueue
    private let engine: UndoEngine
    private let untracked: DatabaseQueue
    private let session: DatabaseQueue
    private let floors: BulkChangeFloors

    init(config: BenchConfig) throws {
        self.config = config
        tracked = try DatabaseQueue()
        untracked = try DatabaseQueue()
        session = try DatabaseQueue()
        for db in [tracked, untracked, session] {
            try ArticlesTable.create(rows: config.rows, in: db)
        }
        engine = try UndoEngine(for: tracked, tableNames: [ArticlesTable.name])
        floors = try BulkChangeFloors(rows: config.rows, engineDatabase: tracked)
    }

    /// The capture rows (against untracked, then against the session, then the floors), then
    /// the undo rows in the same order.
    func run(capture: Bool, undo: Bool) throws -> [Measurement] {
        let updates = [ArticlesTable.BulkUpdate.integerColumn, .textColumn]
        var rows: [[Measurement]] = [[], [], [], [], [], []]
        for update in updates {
            let what = "UPDATE \(update.label), \(countLabel(config.rows)) rows"
            if capture {
                let times = try measureCapture(update)
                rows[0].append(
                    measurement(
                        "capture: \(what), barrier / untracked", times.engine, times.plain,
                        update.captureLimit))
                rows[1].append(
                    measurement(
                        "capture: \(what), barrier / session", times.engine, times.session, 0.5))
                rows[2] += [
                    reference(
                        "capture floor: \(what), log trigger, old and new", times.oldAndNew,
                        times.plain),
                    reference(
                        "capture floor: \(what), log trigger, old only", times.oldOnly,
                        times.plain),
                ]
            }
            if undo {
                let times = try measureUndo(update)
                rows[3].append(
                    measurement(
                        "undo: \(what) / forward untracked", times.engine, times.plain,
                        update.undoLimit))
                rows[4].append(
                    measurement(
                        "undo: \(what) / session invert+apply", times.engine, times.session, 0.6))
                rows[5].append(
                    reference(
                        "undo in plain SQL: \(what), log read by seq", times.plainSQL, times.plain))
            }
        }
        return rows.flatMap { $0 }
    }

    private func measurement(_ name: String, _ value: Double, _ baseline: Double, _ limit: Double)
        -> Measurement
    {
        Measurement(
            measure: name, value: value, baseline: baseline, unit: .seconds, target: .atMost(limit))
    }

    /// A row of `BulkChangeFloors` against the statement untracked: no target.
    private func reference(_ name: String, _ value: Double, _ baseline: Double) -> Measurement {
        Measurement(
            measure: "\(name) / untracked", value: value, baseline: baseline, unit: .seconds,
            target: .none)
    }

    // MARK: Capture

    private func measureCapture(_ update: ArticlesTable.BulkUpdate) throws
        -> (engine: Double, plain: Double, session: Double, oldAndNew: Double, oldOnly: Double)
    {
        var trackedUpdate = update
        var plainUpdate = update
        var sessionUpdate = update
        let stack = engine.defaultStack
        let medians = try Interleaving.medianSeconds(
            [
                Contender(prepare: { try stack.removeAll() }) {
                    try undoable("Update all") {
                        try tracked.write { try trackedUpdate.run($0) }
                    }
                },
                Contender { try untracked.write { try plainUpdate.run($0) } },
                Contender { _ = try captureWithSession(&sessionUpdate) },
                try floors.capture(update, logging: .oldAndNew),
                try floors.capture(update, logging: .oldOnly),
            ], repetitions: config.bulkRepetitions)
        return (medians[0], medians[1], medians[2], medians[3], medians[4])
    }

    /// Runs the update with a session attached to the table; returns the changeset.
    private func captureWithSession(_ update: inout ArticlesTable.BulkUpdate) throws -> [UInt8] {
        let recorder = try session.withoutTransaction { db in
            let recorder = try ChangesetSession(database: db)
            try recorder.attach(table: ArticlesTable.name)
            return recorder
        }
        try session.write { try update.run($0) }
        return try session.read { _ in try recorder.changeset() }
    }

    // MARK: Undo

    private func measureUndo(_ update: ArticlesTable.BulkUpdate) throws
        -> (engine: Double, plain: Double, session: Double, plainSQL: Double)
    {
        var trackedUpdate = update
        var plainUpdate = update
        var sessionUpdate = update
        var changeset: [UInt8] = []
        let stack = engine.defaultStack
        try checkUndoRestores(&trackedUpdate, &sessionUpdate)
        let medians = try Interleaving.medianSeconds(
            [
                Contender(
                    prepare: {
                        try stack.removeAll()
                        try undoable("Update all") {
                            try tracked.write { try trackedUpdate.run($0) }
                        }
                    },
                    run: { try stack.undo() }),
                Contender { try untracked.write { try plainUpdate.run($0) } },
                Contender(
                    prepare: { changeset = try captureWithSession(&sessionUpdate) },
                    run: {
                        let inverse = try ChangesetSession.invert(changeset)
                        try session.write { try $0.applyChangeset(inverse) }
                    }),
                try floors.undo(update),
            ], repetitions: config.bulkRepetitions)
        return (medians[0], medians[1], medians[2], medians[3])
    }

    /// Fails unless one engine undo and one session invert+apply each bring the rows back.
    private func checkUndoRestores(
        _ trackedUpdate: inout ArticlesTable.BulkUpdate,
        _ sessionUpdate: inout ArticlesTable.BulkUpdate
    ) throws {
        let before = try fingerprint(tracked)
        try undoable("Update all") { try tracked.write { try trackedUpdate.run($0) } }
        try engine.defaultStack.undo()
        guard try fingerprint(tracked) == before else {
            throw BenchFailure("undo did not restore the rows")
        }
        let sessionBefore = try fingerprint(session)
        let changes = try captureWithSession(&sessionUpdate)
        let inverse = try ChangesetSession.invert(changes)
        try session.write { try $0.applyChangeset(inverse) }
        guard try fingerprint(session) == sessionBefore else {
            throw BenchFailure("the session's inverted changeset did not restore the rows")
        }
    }

    private func fingerprint(_ db: DatabaseQueue) throws -> [Int64] {
        try db.read { db in
            try db.fetchAll(
                Int64.self,
                "SELECT sum(rating * id) FROM articles UNION ALL "
                    + "SELECT sum(unicode(body) * id + length(body)) FROM articles")
        }
    }
}

/// A benchmark that could not measure what it should (its work did not do what it claims).
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
