import SQLiteDatabase

/// What a row-by-row replay (`Replayer`) has done so far: the rows it touched, the changes it
/// kept, what it means the rows it writes to hold, and how many writes its own statements made.
///
/// A change that fails (a constraint, a row still referenced, a rowid still taken) is tried
/// again later: what it added is taken back from a journal of that change alone
/// (`beginChange`, `rollBackChange`). Copying the whole record before each change instead made
/// every dictionary copy itself whole at its next write: a replay of n rows cost n².
struct ReplayRecord {
    private(set) var affectedRows: [String: Set<Int64>] = [:]
    private(set) var conflicts: [UndoConflict] = []
    /// What the replay means the rows it writes to hold when it ends.
    private(set) var intended = IntendedRows()
    /// How many row writes the replay's own statements made (each writes one row).
    private(set) var writes = 0
    /// What the change being replayed added so far, when one is begun.
    private var journal: Journal?

    private struct Journal {
        let conflicts: Int
        let writes: Int
        var touched: [(table: String, rowid: Int64, isNewTable: Bool)] = []
        var removed: [(key: RowKey, wasThere: Bool)] = []
        var columns: [(key: RowKey, before: [Int: BoundSQL]?)] = []
    }

    mutating func touch(_ table: String, _ rowid: Int64) {
        let isNewTable = affectedRows[table] == nil
        if affectedRows[table, default: []].insert(rowid).inserted {
            journal?.touched.append((table, rowid, isNewTable))
        }
    }

    mutating func keep(_ conflict: UndoConflict) {
        conflicts.append(conflict)
    }

    mutating func noteWrites(_ count: Int) {
        writes += count
    }

    /// Notes a row the replay deletes, by where it was when the replay began.
    mutating func noteRemoved(_ key: RowKey) {
        journal?.removed.append((key, intended.removed.contains(key)))
        intended.removed.insert(key)
    }

    /// Sets (or merges into) the columns the replay means a row to hold.
    mutating func setIntendedColumns(_ key: RowKey, _ columns: [Int: BoundSQL], merging: Bool) {
        intended.alreadyAsMeant.remove(key)
        journal?.columns.append((key, intended.columns[key]))
        if merging {
            intended.columns[key, default: [:]].merge(columns, uniquingKeysWith: { $1 })
        } else {
            intended.columns[key] = columns
        }
    }

    /// Notes that the row at `key` already holds the `columns` the replay means it to: it
    /// stays so, and the replay writes nothing there.
    mutating func noteAlreadyAsMeant(_ key: RowKey, _ columns: [Int: BoundSQL]) {
        setIntendedColumns(key, columns, merging: false)
        intended.alreadyAsMeant.insert(key)
    }

    /// Moves what the replay means a row to hold with the row, to its new rowid.
    mutating func moveIntendedColumns(from old: RowKey, to new: RowKey) {
        guard old != new, let columns = intended.columns[old] else { return }
        journal?.columns.append((old, columns))
        journal?.columns.append((new, intended.columns[new]))
        intended.columns[old] = nil
        intended.columns[new, default: [:]].merge(columns) { moved, _ in moved }
    }

    /// Starts the journal of one change.
    mutating func beginChange() {
        journal = Journal(conflicts: conflicts.count, writes: writes)
    }

    /// Keeps what the change added.
    mutating func endChange() {
        journal = nil
    }

    /// Takes back what the change begun by `beginChange` added.
    mutating func rollBackChange() {
        guard let journal else { return }
        conflicts.removeLast(conflicts.count - journal.conflicts)
        writes = journal.writes
        for (table, rowid, isNewTable) in journal.touched.reversed() {
            affectedRows[table]?.remove(rowid)
            if isNewTable { affectedRows[table] = nil }
        }
        for (key, wasThere) in journal.removed.reversed() where !wasThere {
            intended.removed.remove(key)
        }
        for (key, before) in journal.columns.reversed() { intended.columns[key] = before }
        self.journal = nil
    }
}

/// A row of a tracked table, by the table's id and the row's rowid.
struct RowKey: Hashable {
    let tableId: Int64
    let rowid: Int64
}

/// What a replay means the rows it writes to hold when it ends.
struct IntendedRows {
    /// The rows it deletes, by where they were when it began (a row it moves may take the rowid).
    var removed: Set<RowKey> = []
    /// The columns (by slot) it sets, with their values as SQL reading them from the log, by
    /// where each row is when it ends; a row's other columns hold what they held before.
    var columns: [RowKey: [Int: BoundSQL]] = [:]

    /// The rows among `columns` that already held what it means them to when it came to them
    /// (a cascade, or an application trigger fired by the replay, restored them): it writes
    /// nothing there, and means them to stay so.
    var alreadyAsMeant: Set<RowKey> = []

    /// Whether it changes nothing: every row stays as it was.
    var isEmpty: Bool { removed.isEmpty && columns.keys.allSatisfy(alreadyAsMeant.contains) }
}

extension UndoConflict {
    /// The cell it kept (its whole row: the column named ""), to tell two conflicts of one cell.
    var keptColumn: KeptColumn { KeptColumn(table: table, rowid: rowid, column: column ?? "") }

    /// The conflict of a row (or of its column `slot`, holding `kept`) whose restore an
    /// application's trigger skipped with `RAISE(IGNORE)`: it stays as it is, as the schema's
    /// rules have it (`.constraint`).
    static func skippedByATrigger(
        _ table: TrackedTable, _ rowid: Int64, slot: Int? = nil, kept: SQLiteValue? = nil
    ) -> UndoConflict {
        let column = slot.flatMap { slot in table.columns.first { $0.slot == slot } }
        return UndoConflict(
            table: table.name, rowid: rowid, column: column?.name,
            kept: column == nil ? nil : kept ?? .null, reason: .constraint)
    }
}
