import SQLiteDatabase

/// Logs the rows an `OR REPLACE` conflict resolution deletes to make room for a row being
/// written: SQLite deletes them without firing delete triggers (unless recursive triggers are
/// on), through any unique index (on expressions, partial, with a collation, on a generated
/// column), so the capture triggers alone cannot see them.
///
/// A tracked table's BEFORE trigger of a write that may replace rows arms the watch
/// (`armFunction`); while armed, the connection's pre-update hook keeps each row of a tracked
/// table that is deleted without a trigger logging it (a delete the capture trigger logs is
/// struck off when its log row is written). The AFTER triggers of the same write log the kept
/// rows of its table as deleted, before the write's own log rows (`logFunction`), and one of
/// them disarms.
/// A write that never happened (ignored, skipped by a trigger) leaves the watch armed until the
/// transaction ends: that costs the hook's work, never a log row, since a kept row is logged only
/// by its own barrier and only when it is gone.
///
/// Used on the engine's connection only, inside its queue's lock: the hook and the functions
/// run on the thread that runs the statement.
final class ReplacedRows: WriteTransactionObserver, @unchecked Sendable {
    /// SQL arming the watch, for a BEFORE trigger's body.
    static let armFunction = "\"sqliteundo_armReplaced\"()"

    /// SQL logging the rows replaced for the row now at `rowid` of table `id`, for an AFTER
    /// trigger's body; `disarming` for the one AFTER trigger that matches the arming BEFORE one.
    /// Every AFTER trigger logging an update calls it first: SQLite does not say in which order
    /// a table's triggers fire, and the replaced rows must come before the update in the log.
    static func logFunction(table id: Int64, rowid: String, disarming: Bool) -> String {
        "\"sqliteundo_logReplaced\"(\(id), \(rowid), \(disarming ? 1 : 0))"
    }

    /// A tracked table as the hook reads it: each column's slot with its place among the
    /// table's stored columns.
    private struct Watched {
        let table: TrackedTable
        let storedPlaces: [(slot: Int, place: Int)]
        /// The places of the key's columns, for a table the key map names.
        let keyPlaces: [Int]?
    }

    /// A row deleted while armed that no trigger logged (yet).
    private struct Deleted {
        let tableId: Int64
        /// Its rowid (meaningless for a `WITHOUT ROWID` table).
        let rowid: Int64
        /// For a table the key map names, its key's values, numbered when the row is logged (the
        /// hook may not read the database).
        let key: [SQLiteValue]?
        let barrier: Int64
        let values: [(slot: Int, value: SQLiteValue)]
    }

    private var watched: [String: Watched] = [:]
    /// The places of the log's `tableId`, `kind` and `oldRowid` columns.
    private var logPlaces = (tableId: 2, kind: 3, oldRowid: 4)
    private var armed = 0
    private var deleted: [Deleted] = []
    /// The rows of tables the key map names that a delete trigger logged while rows of theirs
    /// were kept: struck off those rows when they are logged.
    private var loggedByKeyNumber: [RowKey] = []

    /// Installs the hook and the functions on the engine's connection.
    func install(_ db: Database) throws {
        db.add(writeTransactionObserver: self)
        db.watchRowChanges { [unowned self] row in see(row) }
        try db.createFunction("sqliteundo_armReplaced", argumentCount: 0) {
            [unowned self, unowned db] _ in
            armed += 1
            db.isWatchingRowChanges = true
            return .null
        }
        try db.createFunction("sqliteundo_logReplaced", argumentCount: 3) {
            [unowned self, unowned db] arguments in
            guard case .integer(let table) = arguments[0], case .integer(let rowid) = arguments[1]
            else { return .null }
            try log(table: table, writtenAt: rowid, disarming: arguments[2] == .integer(1), db)
            return .null
        }
    }

    /// Takes the tracked tables as the capture triggers were built from them now.
    func track(_ tables: [TrackedTable], _ db: Database) throws {
        var watched: [String: Watched] = [:]
        for table in tables {
            let places = try db.fetchAll(
                Row.self, "SELECT name, hidden FROM pragma_table_xinfo(?)", [.text(table.name)])
            var storedPlace = 0
            var byName: [String: Int] = [:]
            for column in places {
                let hidden: Int = try column.decode("hidden")
                if hidden == 2 { continue }  // a VIRTUAL generated column is not stored
                byName[try column.decode("name", as: String.self)] = storedPlace
                storedPlace += 1
            }
            watched[table.name] = Watched(
                table: table,
                storedPlaces: table.columns.compactMap { column in
                    byName[column.name].map { (column.slot, $0) }
                },
                keyPlaces: table.keyMap.map { $0.columns.compactMap { byName[$0.name] } })
        }
        self.watched = watched
        if let places = try UndoLogSchema.deletePlaces(db) { logPlaces = places }
    }

    private func see(_ row: RowBeingChanged) {
        if UndoLogSchema.isLog(row.table) {
            // Only a row kept so far can be struck off: the log's other rows cost no read.
            guard !deleted.isEmpty, row.operation == .insert,
                row.newValue(atStoredColumn: logPlaces.kind)
                    == .integer(UndoLogSchema.Kind.delete.rawValue),
                case .integer(let table) = row.newValue(atStoredColumn: logPlaces.tableId),
                case .integer(let rowid) = row.newValue(atStoredColumn: logPlaces.oldRowid)
            else { return }
            if let index = deleted.lastIndex(where: {
                $0.tableId == table && $0.key == nil && $0.rowid == rowid
            }) {
                deleted.remove(at: index)  // a trigger logged it
            } else if deleted.contains(where: { $0.tableId == table && $0.key != nil }) {
                loggedByKeyNumber.append(RowKey(tableId: table, rowid: rowid))
            }
            return
        }
        guard row.operation == .delete, let watched = watched[row.table],
            let barrier = UndoContext.barrier?.id
        else { return }
        deleted.append(
            Deleted(
                tableId: watched.table.id, rowid: row.rowid,
                key: watched.keyPlaces.map { places in
                    places.map { row.oldValue(atStoredColumn: $0) ?? .null }
                },
                barrier: barrier,
                values: watched.storedPlaces.map {
                    ($0.slot, row.oldValue(atStoredColumn: $0.place) ?? .null)
                }))
    }

    /// Logs, as deleted by the current barrier, the rows of `table` deleted for the write that
    /// left a row at `rowid`: those at that rowid, and those gone from the table.
    private func log(
        table id: Int64, writtenAt rowid: Int64, disarming: Bool, _ db: Database
    ) throws {
        if disarming { armed = max(0, armed - 1) }
        defer {
            if disarming && armed == 0 {
                deleted.removeAll()
                loggedByKeyNumber.removeAll()
                db.isWatchingRowChanges = false
            }
        }
        guard deleted.contains(where: { $0.tableId == id }),
            let table = watched.values.first(where: { $0.table.id == id })?.table,
            let barrier = UndoContext.barrier?.id
        else { return }
        let mine = deleted.filter { $0.tableId == id && $0.barrier == barrier }
        deleted.removeAll { $0.tableId == id }
        for row in mine {
            var number = row.rowid
            if let key = row.key {
                guard let numbered = try table.keyMap?.number(of: key, db) else { continue }
                number = numbered
                let logged = RowKey(tableId: id, rowid: number)
                if let index = loggedByKeyNumber.firstIndex(of: logged) {
                    loggedByKeyNumber.remove(at: index)  // a trigger logged it
                    continue
                }
            }
            if number != rowid {
                let present = try db.fetchOne(
                    Int.self, "SELECT 1 FROM \(table.sqlName) WHERE \(table.rowMatch())",
                    [.integer(number)])
                if present != nil { continue }  // its statement failed and rolled back
            }
            try UndoLogSchema.logDelete(
                by: barrier, of: table, at: number, values: row.values, db)
        }
    }

    private func reset() {
        armed = 0
        deleted.removeAll()
        loggedByKeyNumber.removeAll()
    }

    func didBeginWrite() { reset() }
    func willCommit(_ db: Database) throws {
        reset()
        db.isWatchingRowChanges = false
    }
    func didRollback(_ db: Database) {
        reset()
        db.isWatchingRowChanges = false
    }
}
