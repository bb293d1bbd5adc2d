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
/// nothing to set back.
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

    /// Rounds of setting back before giving up: triggers that keep writing each other's rows
    /// would never settle.
    static let maxRounds = 8

    /// Sets everything back; throws `ApplicationTriggersUnsettled` when rounds keep finding more.
    func run() throws {
        for _ in 0..<Self.maxRounds where try repairOnce() == 0 {
            return
        }
        throw ApplicationTriggersUnsettled(rounds: Self.maxRounds)
    }

    /// One round: returns how many rows it wrote.
    private func repairOnce() throws -> Int {
        let changes = try UndoLogSchema.netChanges(ofBarrier: inverse, from: logStart, db)
        var repaired = 0
        var seenRemoved: Set<RowKey> = []
        var seenWritten: Set<RowKey> = []
        for change in changes {
            guard let table = tables[change.tableId] else { continue }
            if change.kind == .delete {
                guard let rowid = change.originalRowid else { continue }
                let key = RowKey(tableId: table.id, rowid: rowid)
                seenRemoved.insert(key)
                if !intended.removed.contains(key) {
                    repaired += try reinsert(change.before, at: rowid, into: table)
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
                repaired += try set(columns, of: rowid, in: table)
            } else if change.kind == .insert {
                repaired += try delete(rowid, from: table)
            } else {
                repaired += try set(change.before.mapValues(\.expression), of: rowid, in: table)
            }
        }
        // Rows the replay wrote whose triggers' writes cancelled its own.
        for (key, columns) in intended.columns where !seenWritten.contains(key) {
            guard let table = tables[key.tableId] else { continue }
            repaired += try set(columns, of: key.rowid, in: table)
        }
        for key in intended.removed
        where !seenRemoved.contains(key) && intended.columns[key] == nil {
            guard let table = tables[key.tableId] else { continue }
            repaired += try delete(key.rowid, from: table)
        }
        return repaired
    }

    /// Sets the columns (by slot, values as SQL) of a row that does not hold them all already:
    /// only those it does not hold, so that a trigger watching another column (`UPDATE OF name`,
    /// one that skips renaming a locked row) does not fire.
    private func set(_ columns: [Int: BoundSQL], of rowid: Int64, in table: TrackedTable) throws
        -> Int
    {
        let named = table.columns.compactMap { column in
            columns[column.slot].map { (name: column.name.quotedIdentifier, value: $0) }
        }
        guard !named.isEmpty else { return 0 }
        // `same` names the value twice: its arguments are bound twice.
        let differs = BoundSQL.joined(
            named.map {
                BoundSQL(
                    "NOT \(UndoLogSchema.same($0.name, $0.value.sql))",
                    $0.value.arguments + $0.value.arguments)
            }, separator: ", ")
        let current = try db.fetchOne(
            Row.self,
            "SELECT \(differs.sql) FROM \(table.sqlName) WHERE \(table.rowMatch())",
            differs.arguments + [.integer(rowid)])
        guard let current else { return 0 }
        let differing = try named.indices.filter { try current.decode(at: $0, as: Bool.self) }
            .map { named[$0] }
        guard !differing.isEmpty else { return 0 }
        let assignments = BoundSQL.assignments(differing.map { ($0.name, $0.value) })
        try db.executeReplay(
            "UPDATE \(table.sqlName) SET \(assignments.sql) WHERE \(table.rowMatch())",
            assignments.arguments + [.integer(rowid)])
        return db.changesCount
    }

    private func delete(_ rowid: Int64, from table: TrackedTable) throws -> Int {
        try db.executeReplay(
            "DELETE FROM \(table.sqlName) WHERE \(table.rowMatch())", [.integer(rowid)])
        return db.changesCount
    }

    private func reinsert(_ row: [Int: LoggedValue], at rowid: Int64, into table: TrackedTable)
        throws -> Int
    {
        let columns = table.columns.filter { row[$0.slot] != nil }
        // A row the key map names is where its key puts it.
        let names = (table.keyMap == nil ? ["rowid"] : []) + columns.map(\.name.quotedIdentifier)
        let values = BoundSQL.joined(
            (table.keyMap == nil ? [BoundSQL("?", [.integer(rowid)])] : [])
                + columns.compactMap { row[$0.slot]?.expression }, separator: ", ")
        try db.executeReplay(
            "INSERT INTO \(table.sqlName)(\(names.joined(separator: ", "))) "
                + "VALUES (\(values.sql))", values.arguments)
        return db.changesCount
    }
}

/// Application triggers kept writing tracked rows after every round of setting them back.
struct ApplicationTriggersUnsettled: Error, CustomStringConvertible {
    let rounds: Int
    var description: String {
        "application triggers kept changing tracked rows after \(rounds) rounds of setting them "
            + "back (triggers that write each other's rows without end)"
    }
}
