internal import CSQLite3

/// A row SQLite is about to insert, update or delete, seen from the pre-update hook: valid only
/// inside the `watchRowChanges` handler it is given to (its values are read from SQLite while
/// the change waits).
public struct RowBeingChanged {
    public enum Operation: Sendable { case insert, update, delete }

    public let operation: Operation
    /// The table's name, as SQLite spells it (a table of the main schema).
    public let table: String
    /// The row's rowid before the change (for an insert, the new row's).
    public let rowid: Int64
    /// How deep in triggers the change runs: 0 for a statement's own (and for the rows a
    /// REPLACE deletes to make room for it), 1 inside a trigger it fired, and so on.
    public let triggerDepth: Int
    private let handle: OpaquePointer

    init(
        operation: Operation, table: String, rowid: Int64, triggerDepth: Int,
        handle: OpaquePointer
    ) {
        self.operation = operation
        self.table = table
        self.rowid = rowid
        self.triggerDepth = triggerDepth
        self.handle = handle
    }

    /// The row's value before the change (an update or a delete) in a stored column, by its
    /// place among the table's stored columns (in declaration order, leaving out `VIRTUAL`
    /// generated ones; an `INTEGER PRIMARY KEY` gives the rowid), exactly as stored; nil past
    /// the last one or for an insert.
    public func oldValue(atStoredColumn index: Int) -> SQLiteValue? {
        var value: OpaquePointer?
        guard sqlite3_preupdate_old(handle, Int32(index), &value) == SQLITE_OK else { return nil }
        return Statement.value(of: value)
    }

    /// The row's value after the change (an insert or an update), as `oldValue` reads it.
    public func newValue(atStoredColumn index: Int) -> SQLiteValue? {
        var value: OpaquePointer?
        guard sqlite3_preupdate_new(handle, Int32(index), &value) == SQLITE_OK else { return nil }
        return Statement.value(of: value)
    }
}

extension Database {
    /// Calls `handler` before SQLite changes a row of a table of the main schema while
    /// `isWatchingRowChanges` is true, however the change comes: a statement, a trigger, a
    /// foreign key's action, or the rows an `OR REPLACE` conflict resolution deletes to make
    /// room (which fire no delete trigger unless recursive triggers are on). `nil` stops.
    ///
    /// The handler must not use the connection. While `isWatchingRowChanges` is false (and no
    /// table is without rowid) the hook is not installed, and row changes pay nothing for it.
    public func watchRowChanges(_ handler: ((RowBeingChanged) -> Void)?) {
        rowChangeHandler = handler
        isPreUpdateHookInstalled = false
        sqlite3_preupdate_hook(handle, nil, nil)
        installPreUpdateHookIfNeeded()
    }

    /// Installs SQLite's pre-update hook while it has work (a handler that watches, or tables
    /// without rowid to count), and removes it otherwise: an installed hook costs every row
    /// change of the connection a call, the engine's log rows included.
    func installPreUpdateHookIfNeeded() {
        let needed =
            rowChangeHandler != nil && (isWatchingRowChanges || !withoutRowidTables.isEmpty)
        guard needed != isPreUpdateHookInstalled else { return }
        isPreUpdateHookInstalled = needed
        guard needed else {
            sqlite3_preupdate_hook(handle, nil, nil)
            return
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_preupdate_hook(
            handle,
            { context, handle, operation, schema, table, rowid, _ in
                guard let context, let handle, let schema, let table else { return }
                let database = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue()
                if !database.withoutRowidTables.isEmpty, sqlite3_stricmp(schema, "main") == 0,
                    database.withoutRowidTables.contains(String(cString: table).lowercased())
                {
                    database.noteChange(
                        of: table, resizing: operation != SQLITE_UPDATE, rowid: 0)
                }
                guard database.isWatchingRowChanges, sqlite3_stricmp(schema, "main") == 0,
                    let handler = database.rowChangeHandler
                else { return }
                let kind: RowBeingChanged.Operation
                switch operation {
                case SQLITE_INSERT: kind = .insert
                case SQLITE_DELETE: kind = .delete
                default: kind = .update
                }
                handler(
                    RowBeingChanged(
                        operation: kind, table: String(cString: table), rowid: rowid,
                        triggerDepth: Int(sqlite3_preupdate_depth(handle)), handle: handle))
            }, context)
    }
}
