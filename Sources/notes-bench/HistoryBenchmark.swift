import Foundation
import SQLiteDatabase
import SQLiteUndo

/// Undo (and redo) of one barrier when the stack holds a long history, against a short one.
@MainActor
struct HistoryBenchmark {
    let config: BenchConfig

    func run() throws -> [Measurement] {
        let long = try History(barriers: config.longHistory, rows: config.rows)
        let short = try History(barriers: config.shortHistory, rows: config.rows)
        let medians = try Interleaving.medianSeconds(
            [Contender(run: long.undoAndRedo), Contender(run: short.undoAndRedo)],
            repetitions: config.historyRepetitions)
        let measure =
            "undo+redo with \(countLabel(config.longHistory)) barriers of history "
            + "/ \(config.shortHistory)"
        return [
            Measurement(
                measure: measure, value: medians[0], baseline: medians[1], unit: .seconds,
                target: .atMost(1.2))
        ]
    }

    /// An in-memory database whose stack holds `barriers` one-row barriers.
    private struct History {
        let db: DatabaseQueue
        let engine: UndoEngine
        let stack: UndoStack

        init(barriers: Int, rows: Int) throws {
            db = try DatabaseQueue()
            try ArticlesTable.create(rows: rows, in: db)
            engine = try UndoEngine(for: db, tableNames: [ArticlesTable.name])
            stack = engine.defaultStack
            stack.levelsOfUndo = barriers + 1
            let started = Date()
            for index in 0..<barriers {
                let id = Int64(index * 7919 % rows + 1)
                try undoable("Set Rating") {
                    try db.write { db in
                        try db.execute(
                            "UPDATE articles SET rating = rating + 1 WHERE id = ?", [.integer(id)])
                    }
                }
            }
            guard stack.state.undo.count == barriers else {
                throw BenchFailure(
                    "the stack kept \(stack.state.undo.count) of \(barriers) barriers")
            }
            Progress.note(
                "built \(barriers) barriers of history in "
                    + String(format: "%.1f s", Date().timeIntervalSince(started)))
        }

        func undoAndRedo() throws {
            guard try stack.undo() != nil, try stack.redo() != nil else {
                throw BenchFailure("nothing to undo or redo")
            }
        }
    }
}
