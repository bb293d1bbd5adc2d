import Foundation
import SQLiteDatabase
import SQLiteUndo

/// Going to a step on another branch of the history tree (`UndoStack.go(to:)`), `distance`
/// steps away (half undos to where the branches fork, half redos down the other), against as
/// many plain undos and redos on one branch.
@MainActor
struct BranchBenchmark {
    let config: BenchConfig
    /// Steps between the two ends, through the fork.
    static let distance = 1000

    func run() throws -> [Measurement] {
        let half = Self.distance / 2
        let db = try DatabaseQueue()
        try ArticlesTable.create(rows: config.rows, in: db)
        let engine = try UndoEngine(for: db, tableNames: [ArticlesTable.name])
        let stack = engine.defaultStack
        stack.levelsOfUndo = Self.distance + 10
        let rate = { (index: Int) in
            try undoable("Set Rating") {
                try db.write { db in
                    try db.execute(
                        "UPDATE articles SET rating = rating + 1 WHERE id = ?",
                        [.integer(Int64(index * 7919 % config.rows + 1))])
                }
            }
        }
        // Two branches of `half` steps each, forking at the start.
        for index in 0..<half { try rate(index) }
        for _ in 0..<half { try stack.undo() }
        for index in half..<(2 * half) { try rate(index) }
        let history = stack.history
        guard let first = history.kept.first, let second = history.current,
            history.undo.count == half, history.kept.count == half
        else { throw BenchFailure("the history is not two branches of \(half) steps") }
        var ends = [first, second]
        let goAcross = {
            let events = try stack.go(to: ends[0])
            guard events.count == Self.distance else {
                throw BenchFailure("going to the other branch replayed \(events.count) steps")
            }
            ends.swapAt(0, 1)
        }
        let undoAndRedo = {
            for _ in 0..<half {
                guard try stack.undo() != nil else { throw BenchFailure("no undo") }
            }
            for _ in 0..<half {
                guard try stack.redo() != nil else { throw BenchFailure("no redo") }
            }
        }
        let medians = try Interleaving.medianSeconds(
            [Contender(run: goAcross), Contender(run: undoAndRedo)],
            repetitions: max(3, config.historyRepetitions / 10))
        return [
            Measurement(
                measure: "go to a step on another branch \(Self.distance) steps away "
                    + "/ as many plain undos and redos",
                value: medians[0], baseline: medians[1], unit: .seconds, target: .atMost(1.2))
        ]
    }
}
