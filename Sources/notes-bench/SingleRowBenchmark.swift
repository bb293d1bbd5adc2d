import SQLiteDatabase
import SQLiteUndo

/// A user action: one barrier updating one row of a file database in WAL, against the same
/// transaction untracked in another file. The barrier is filed on its stack inside the same
/// transaction, just before it commits.
@MainActor
struct SingleRowBenchmark {
    let config: BenchConfig
    let folder: ScratchFolder

    func run() throws -> [Measurement] {
        let tracked = try DatabaseQueue(path: folder.path("single-row-tracked.db"))
        let untracked = try DatabaseQueue(path: folder.path("single-row-untracked.db"))
        for db in [tracked, untracked] { try ArticlesTable.create(rows: config.rows, in: db) }
        let engine = try UndoEngine(for: tracked, tableNames: [ArticlesTable.name])
        let stack = try engine.stack(id: "bench")
        var trackedRound = 0
        var untrackedRound = 0
        let medians = try Interleaving.medianSeconds(
            [
                Contender {
                    let (sql, arguments) = statement(&trackedRound)
                    try withUndoStack(stack) {
                        try undoable("Set Rating") {
                            try tracked.write { try $0.execute(sql, arguments) }
                        }
                    }
                },
                Contender {
                    let (sql, arguments) = statement(&untrackedRound)
                    try untracked.write { try $0.execute(sql, arguments) }
                },
            ], repetitions: config.singleRowRepetitions)
        return [
            Measurement(
                measure: "1-row update, file in WAL: barrier / untracked transaction",
                value: medians[0], baseline: medians[1], unit: .seconds, target: .atMost(1.5))
        ]
    }

    /// The next 1-row update of a series that walks through the rows.
    private func statement(_ round: inout Int) -> (String, [SQLiteValue]) {
        round += 1
        let id = Int64(round * 7919 % config.rows + 1)
        return ("UPDATE articles SET rating = rating + 1 WHERE id = ?", [.integer(id)])
    }
}
