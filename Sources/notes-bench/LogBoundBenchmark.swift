import SQLiteDatabase
import SQLiteUndo

/// The log stays bounded: after many barriers with a small `levelsOfUndo`, the log holds exactly
/// the rows of the barriers the stack still keeps.
@MainActor
struct LogBoundBenchmark {
    let config: BenchConfig

    func run() throws -> [Measurement] {
        let db = try DatabaseQueue()
        let rows = 100
        try ArticlesTable.create(rows: rows, in: db)
        let engine = try UndoEngine(for: db, tableNames: [ArticlesTable.name])
        let stack = engine.defaultStack
        stack.levelsOfUndo = config.boundedLevels
        var rowsPerBarrier: [Int] = []
        for index in 0..<config.boundedBarriers {
            // 1 to 3 rows per barrier, so a count off by one barrier shows.
            let count = index % 3 + 1
            let first = Int64(index % (rows - 3) + 1)
            try undoable("Bump") {
                try db.write { db in
                    try db.execute(
                        "UPDATE articles SET rating = rating + 1 WHERE id BETWEEN ? AND ?",
                        [.integer(first), .integer(first + Int64(count) - 1)])
                }
            }
            rowsPerBarrier.append(count)
        }
        let expected = rowsPerBarrier.suffix(config.boundedLevels).reduce(0, +)
        let logged = try db.read {
            try $0.fetchOne(Int.self, "SELECT count(*) FROM sqliteundo_log")
        }
        let measure =
            "log rows after \(countLabel(config.boundedBarriers)) barriers, levelsOfUndo "
            + "\(config.boundedLevels) / rows of the last \(config.boundedLevels)"
        return [
            Measurement(
                measure: measure, value: Double(logged ?? 0), baseline: Double(expected),
                unit: .rows, target: .equal)
        ]
    }
}
