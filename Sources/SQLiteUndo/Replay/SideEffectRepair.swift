import SQLiteDatabase

/// Sets back what an application's triggers wrote into tracked tables while a row-by-row replay
/// ran: an `updatedAt` stamp fired by a restored title, a counter kept by insert and delete
/// triggers, a parent's `modifiedAt` touched by its children.
///
/// The replay runs under its inverse barrier, so its own writes and every trigger's are in the
/// log, each row's first value there being the one it had before the replay. After the replay,
/// every row it changed must hold what the replayer meant (`IntendedRows`) and every other value
/// what it held before the replay. Setting those back fires the triggers again (and is captured,
/// so the recorded inverse nets out to the barrier's own change); it repeats until a round finds
/// nothing to set back. A trigger that writes a row again at every write of it (an unguarded
/// `updatedAt` stamp, a revision counter) never lets a round find nothing: after `maxRounds`,
/// what is still not as meant is kept as the triggers left it, and reported.
///
/// Undo with guarded triggers (`WHEN NOT sqliteundo_isReplaying()`) never gets here. Nor does a
/// replay whose statements were the only writes to tracked tables: the caller compares the
/// changed-row counts first.
struct SideEffectRepair {
    let db: Database
    let tables: [Int64: TrackedTable]
    let intended: IntendedRows
    /// The replay's inverse barrier and where its log rows start.
    let inverse: Int64
    let logStart: Int64

    /// Rounds of setting back before keeping what triggers keep writing.
    static let maxRounds = 8

    /// Sets everything back, and returns what application triggers wrote again at every round:
    /// each value (or row) still not as meant after `maxRounds`, kept as it is (`.constraint`).
    func run() throws -> [UndoConflict] {
        for _ in 0..<Self.maxRounds where try repairOnce().written == 0 {
            return []
        }
        return try repairOnce(writing: false).kept
    }

    /// One round: what it wrote, or, not `writing`, what it would have set back.
    private func repairOnce(writing: Bool = true) throws -> Round {
        var repair = Round(db: db, writing: writing)
        let changes = try UndoLogSchema.netChanges(ofBarrier: inverse, from: logStart, db)
        var seenRemoved: Set<RowKey> = []
        var seenWritten: Set<RowKey> = []
        for change in changes {
            guard let table = tables[change.tableId] else { continue }
            if change.kind == .delete {
                guard let rowid = change.originalRowid else { continue }
                let key = RowKey(tableId: table.id, rowid: rowid)
                seenRemoved.insert(key)
                if !intended.removed.contains(key) {
                    try repair.reinsert(change.before, at: rowid, into: table)
                }
                continue
            }
            guard let rowid = change.currentRowid else { continue }
            let key = RowKey(tableId: table.id, rowid: rowid)
            seenWritten.insert(key)
            if let meant = intended.columns[key] {
                let columns = change.before.mapValues(\.expression).merging(meant) { _, meant in
                    meant
                }
                try repair.set(columns, of: rowid, in: table)
            } else if change.kind == .insert {
                try repair.delete(rowid, from: table)
            } else {
                try repair.set(change.before.mapValues(\.expression), of: rowid, in: table)
            }
        }
        // Rows the replay wrote whose triggers' writes cancelled its own.
        for (key, columns) in intended.columns where !seenWritten.contains(key) {
            guard let table = tables[key.tableId] else { continue }
            try repair.set(columns, of: key.rowid, in: table)
        }
        for key in intended.removed
        where !seenRemoved.contains(key) && intended.columns[key] == nil {
            guard let table = tables[key.tableId] else { continue }
            try repair.delete(key.rowid, from: table)
        }
        return repair
    }
}

/// The writes of one round of `SideEffectRepair`: made, or, not `writing`, reported as kept.
private struct Round {
    let db: Database
    let writing: Bool
    /// How many rows it wrote.
    private(set) var written = 0
    /// What it would have set back, not writing.
    private(set) var kept: [UndoConflict] = []

    init(db: Database, writing: Bool) {
        self.db = db
        self.writing = writing
    }

    /// Sets the columns (by slot, values as SQL) of a row that does not hold them all already:
    /// only those it does not hold, so that a trigger watching another column (`UPDATE OF name`,
    /// one that skips renaming a locked row) does not fire.
    mutating func set(_ columns: [Int: BoundSQL], of rowid: Int64, in table: TrackedTable)
        throws
    {
        let named = table.columns.compactMap { column in
            columns[column.slot].map {
                (name: column.name.quotedIdentifier, slot: column.slot, value: $0)
            }
        }
        guard !named.isEmpty else { return }
        // `same` names the value twice: its arguments are bound twice.
        let differs = BoundSQL.joined(
            named.map {
                BoundSQL(
                    "NOT \(UndoLogSchema.same($0.name, $0.value.sql)), \($0.name)",
                    $0.value.arguments + $0.value.arguments)
            }, separator: ", ")
        let current = try db.fetchOne(
            Row.self,
            "SELECT \(differs.sql) FROM \(table.sqlName) WHERE \(table.rowMatch())",
            differs.arguments + [.integer(rowid)])
        guard let current else { return }
        let differing = try named.indices.filter {
            try current.decode(at: 2 * $0, as: Bool.self)
        }
        guard !differing.isEmpty else { return }
        guard writing else {
            kept += differing.map {
                .skippedByATrigger(table, rowid, slot: named[$0].slot, kept: current[2 * $0 + 1])
            }
            return
        }
        let assignments = BoundSQL.assignments(differing.map { (named[$0].name, named[$0].value) })
        try db.executeReplay(
            "UPDATE \(table.sqlName) SET \(assignments.sql) WHERE \(table.rowMatch())",
            assignments.arguments + [.integer(rowid)])
        written += db.changesCount
    }

    mutating func delete(_ rowid: Int64, from table: TrackedTable) throws {
        guard writing else {
            let exists = try db.fetchOne(
                Int64.self, "SELECT 1 FROM \(table.sqlName) WHERE \(table.rowMatch())",
                [.integer(rowid)])
            if exists != nil { kept.append(.skippedByATrigger(table, rowid)) }
            return
        }
        try db.executeReplay(
            "DELETE FROM \(table.sqlName) WHERE \(table.rowMatch())", [.integer(rowid)])
        written += db.changesCount
    }

    mutating func reinsert(
        _ row: [Int: LoggedValue], at rowid: Int64, into table: TrackedTable
    ) throws {
        guard writing else {
            kept.append(.skippedByATrigger(table, rowid))
            return
        }
        let columns = table.columns.filter { row[$0.slot] != nil }
        // A row the key map names is where its key puts it.
        let names = (table.keyMap == nil ? ["rowid"] : []) + columns.map(\.name.quotedIdentifier)
        let values = BoundSQL.joined(
            (table.keyMap == nil ? [BoundSQL("?", [.integer(rowid)])] : [])
                + columns.compactMap { row[$0.slot]?.expression }, separator: ", ")
        try db.executeReplay(
            "INSERT INTO \(table.sqlName)(\(names.joined(separator: ", "))) "
                + "VALUES (\(values.sql))", values.arguments)
        written += db.changesCount
    }
}
