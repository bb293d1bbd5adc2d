import SQLiteDatabase

/// Errors of the undo engine; each says what to do about it.
public enum UndoError: Error, Sendable, Equatable, CustomStringConvertible, WrapsSQLiteError {
    /// A table given to the engine does not exist.
    case unknownTable(String)
    /// The table has no PRIMARY KEY: nothing names its rows for good (`VACUUM` may renumber
    /// its rowids), so history would point at the wrong ones.
    case noPrimaryKey(String)
    /// A column of the table other than its `INTEGER PRIMARY KEY` is named `rowid`, `oid` or
    /// `_rowid_`: in SQL that name then means the column, not the rowid the log identifies the
    /// table's rows by.
    case columnHidesRowid(String)
    /// The table is one of the engine's own (`sqliteundo_…`), which record the history.
    case engineTable(String)
    /// The table has more columns than the log's 62-bit column mask can describe.
    case tooManyColumns(String)
    /// The database already has an undo engine; share that one.
    case engineAlreadyInstalled
    /// Replaying a barrier failed; everything was rolled back and the stack is unchanged.
    /// `underlying` is the SQLite error that made it fail, if one did: `catch SQLiteError.busy`
    /// matches it.
    case replayFailed(barrier: String, reason: String, underlying: SQLiteError? = nil)
    /// A check of the `UndoDiagnostics` trait (or of the environment variable
    /// `SQLITEUNDO_DIAGNOSTICS`) failed after a replay.
    case diagnosticFailed(String)
    /// `undo(to:)` or `redo(to:)` was given a step that is not on that list (any more): it was
    /// undone, redone or dropped since it was read.
    case stepNotFound(String)

    public var description: String {
        switch self {
        case .unknownTable(let name):
            return "cannot track table \(name): no such table"
        case .noPrimaryKey(let name):
            return "cannot track table \(name): it has no PRIMARY KEY, so nothing names its rows "
                + "for good (VACUUM may renumber them) and undo could change the wrong ones; "
                + "declare one (id INTEGER PRIMARY KEY, a TEXT key, or PRIMARY KEY(a, b)); "
                + "nothing was changed"
        case .columnHidesRowid(let table):
            return "cannot track table \(table): a column named rowid, oid or _rowid_ hides "
                + "SQLite's rowid, which the undo log identifies rows by; rename that column "
                + "(nothing was changed)"
        case .engineTable(let name):
            return "cannot track table \(name): names starting with sqliteundo_ are the undo "
                + "engine's own tables; nothing was changed"
        case .tooManyColumns(let name):
            return "cannot track table \(name): more than 62 columns"
        case .engineAlreadyInstalled:
            return "this database already has an undo engine; use that engine's stacks"
        case .replayFailed(let barrier, let reason, _):
            return "could not replay \"\(barrier)\": \(reason); nothing was changed"
        case .diagnosticFailed(let problem):
            return "undo diagnostics: \(problem)"
        case .stepNotFound(let name):
            return "\"\(name)\" is not there to go back or forward to any more; nothing was changed"
        }
    }

    /// The SQLite error a failed replay came from, or nil.
    public var sqliteError: SQLiteError? {
        guard case .replayFailed(_, _, let underlying) = self else { return nil }
        return underlying
    }
}
