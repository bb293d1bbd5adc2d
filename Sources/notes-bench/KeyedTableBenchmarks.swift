import SQLiteDatabase
import SQLiteUndo

/// Capture and undo of a bulk UPDATE on a table keyed by text (UUIDs), whose rows the engine
/// names through its key map, side by side with the same table keyed by `INTEGER PRIMARY KEY`
/// and with the statement untracked. No target: what a key other than the rowid costs.
@MainActor
struct KeyedTableBenchmarks {
    let config: BenchConfig
    private let keyed: DatabaseQueue
    private let keyedEngine: UndoEngine
    private let integer: DatabaseQueue
    private let integerEngine: UndoEngine
    private let untracked: DatabaseQueue

    init(config: BenchConfig) throws {
        self.config = config
        keyed = try DatabaseQueue()
        integer = try DatabaseQueue()
        untracked = try DatabaseQueue()
        try ArticlesTable.create(rows: config.rows, key: .text, in: keyed)
        try ArticlesTable.create(rows: config.rows, key: .integer, in: integer)
        try ArticlesTable.create(rows: config.rows, key: .text, in: untracked)
        keyedEngine = try UndoEngine(for: keyed, tableNames: [ArticlesTable.name])
        integerEngine = try UndoEngine(for: integer, tableNames: [ArticlesTable.name])
    }

    func run() throws -> [Measurement] {
        let what = "UPDATE int column, \(countLabel(config.rows)) rows"
        try checkUndoRestores()
        let capture = try Interleaving.medianSeconds(
            [
                Contender(prepare: { try keyedEngine.defaultStack.removeAll() }) {
                    try recordUpdate(keyed)
                },
                Contender(prepare: { try integerEngine.defaultStack.removeAll() }) {
                    try recordUpdate(integer)
                },
                Contender { try update(untracked) },
            ], repetitions: config.bulkRepetitions)
        let undo = try Interleaving.medianSeconds(
            [(keyed, keyedEngine), (integer, integerEngine)].map { db, engine in
                Contender(
                    prepare: {
                        try engine.defaultStack.removeAll()
                        try recordUpdate(db)
                    },
                    run: { try engine.defaultStack.undo() })
            } + [Contender { try update(untracked) }], repetitions: config.bulkRepetitions)
        // Each with no target: the text key against the untracked statement and the integer key.
        func row(_ measure: String, _ value: Double, _ baseline: Double) -> Measurement {
            Measurement(
                measure: "keyed: \(measure)", value: value, baseline: baseline, unit: .seconds,
                target: .none)
        }
        return [
            row("capture: \(what), text key, barrier / untracked", capture[0], capture[2]),
            row("capture: \(what), text key / integer key", capture[0], capture[1]),
            row("undo: \(what), text key / forward untracked", undo[0], undo[2]),
            row("undo: \(what), text key / integer key", undo[0], undo[1]),
        ]
    }

    /// The measured statement (`ArticlesTable.BulkUpdate.integerColumn`), untracked.
    private func update(_ db: DatabaseQueue) throws {
        var update = ArticlesTable.BulkUpdate.integerColumn
        try db.write { try update.run($0) }
    }

    /// The measured statement as one action of the database's engine.
    private func recordUpdate(_ db: DatabaseQueue) throws {
        try undoable("Update all") { try update(db) }
    }

    /// Fails unless an undo on the text-keyed table brings every rating back.
    private func checkUndoRestores() throws {
        let ratings = {
            try keyed.read {
                try $0.fetchAll(Int64.self, "SELECT rating FROM articles ORDER BY id")
            }
        }
        let before = try ratings()
        try recordUpdate(keyed)
        try keyedEngine.defaultStack.undo()
        guard try ratings() == before else {
            throw BenchFailure("undo on the text-keyed table did not restore the ratings")
        }
    }
}
