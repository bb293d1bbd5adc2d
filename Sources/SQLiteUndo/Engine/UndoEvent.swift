import SQLiteDatabase

/// What one undo or redo did, told to the subscribers of the stack that performed it.
public struct UndoEvent: Sendable, Equatable {
    /// Whether the event is an undo or a redo.
    public enum Kind: Sendable, Equatable {
        case undo
        case redo
    }

    /// Undo or redo.
    public let kind: Kind
    /// The action's name ("Set Rating").
    public let name: String
    /// The rows the replay touched, per table name: their rowids, or for a table keyed
    /// otherwise the numbers the engine gives their keys (`keys(for:)` gives those keys).
    public let affectedRows: [String: Set<Int64>]
    /// Later changes by someone else that the replay kept instead of overwriting.
    public let conflicts: [UndoConflict]
    /// The primary keys of the rows the replay touched in the tables keyed otherwise than by an
    /// `INTEGER PRIMARY KEY`, per table name, each key its values in the key's order (the keys
    /// of the others are their rowids: `keys(for:)` gives every table's).
    public let affectedKeys: [String: [[SQLiteValue]]]

    /// An event as a stack delivers it (the engine gives `affectedKeys`).
    public init(
        kind: Kind, name: String, affectedRows: [String: Set<Int64>], conflicts: [UndoConflict],
        affectedKeys: [String: [[SQLiteValue]]] = [:]
    ) {
        self.kind = kind
        self.name = name
        self.affectedRows = affectedRows
        self.conflicts = conflicts
        self.affectedKeys = affectedKeys
    }

    /// The primary keys (each its values in the key's order) of the rows of `table` the replay
    /// touched, or nil when it touched none: for a table with an `INTEGER PRIMARY KEY`, its
    /// rowids, each as a key of one value.
    public func keys(for table: any Table.Type) -> [[SQLiteValue]]? {
        keys(forTable: table.tableName)
    }

    /// The primary keys of the rows of the table named `name` (any case) the replay touched
    /// (see `keys(for:)`), or nil when it touched none.
    public func keys(forTable name: String) -> [[SQLiteValue]]? {
        affectedKeys.keys(ofTableNamed: name, numbered: affectedRows)
    }

    /// The rowids of `table` the replay touched, or nil when it touched none.
    public func ids(for table: any Table.Type) -> Set<Int64>? {
        ids(forTable: table.tableName)
    }

    /// The rowids of the table named `name` the replay touched, or nil when it touched none.
    public func ids(forTable name: String) -> Set<Int64>? {
        guard let ids = affectedRows[name], !ids.isEmpty else { return nil }
        return ids
    }
}

/// A value an undo or redo did not restore because someone else changed it since, or because
/// restoring it would break a foreign key or another constraint.
public struct UndoConflict: Sendable, Equatable, CustomStringConvertible {
    /// Why the value was kept.
    public enum Reason: Sendable, Equatable {
        /// Someone else changed it after this action (the usual case).
        case changedSince
        /// Restoring it would reference a row that is gone, or deleting the row would leave
        /// other rows referencing nothing (or, with `ON DELETE CASCADE`, delete them).
        case foreignKey
        /// Restoring it would break a CHECK, NOT NULL or UNIQUE constraint as the rows are now
        /// (another program wrote, with the checks off, a value the schema forbids, or another
        /// row took a unique value), or an application's trigger skipped the write
        /// (`RAISE(IGNORE)`: a row locked since) or writes the value again at every write of the
        /// row (an unguarded `updatedAt` stamp).
        case constraint
    }

    /// The table.
    public let table: String
    /// The row, by its rowid when the undo or redo began (one it moves back to another rowid
    /// is named where it was).
    public let rowid: Int64
    /// The column kept, or nil when the whole row was kept (a row changed since it was inserted,
    /// re-created since it was deleted, or deleted since it was updated).
    public let column: String?
    /// The value kept (nil for a whole row, or when the row no longer exists).
    public let kept: SQLiteValue?
    /// The id of the stack whose action made the kept change, or nil when no recorded action
    /// made it (a write outside any barrier, or history already dropped).
    public var keptFrom: String?
    /// Why it was kept.
    public var reason: Reason
    /// The value the undo or redo could not put back (a `.constraint` conflict of a column):
    /// a unique value another row holds now, or one the schema forbids.
    public let restoring: SQLiteValue?
    /// The row holding the unique value that could not be put back (`restoring`); `keptFrom`
    /// then names the stack whose change gave that row the value.
    public let heldBy: Int64?
    /// The value `heldBy` holds: `restoring` as the unique index compares it, which may differ
    /// from it (in case, under `COLLATE NOCASE`); nil when not read.
    var heldValue: SQLiteValue?

    public init(
        table: String, rowid: Int64, column: String?, kept: SQLiteValue?, keptFrom: String? = nil,
        reason: Reason = .changedSince, restoring: SQLiteValue? = nil, heldBy: Int64? = nil
    ) {
        self.table = table
        self.rowid = rowid
        self.column = column
        self.kept = kept
        self.keptFrom = keptFrom
        self.reason = reason
        self.restoring = restoring
        self.heldBy = heldBy
    }

    public var description: String {
        guard let column else { return "kept row \(rowid) of \(table)" }
        if let heldBy, let restoring {
            let held = heldValue ?? restoring
            return "kept \(table).\(column) of row \(rowid): row \(heldBy) holds \(held) now"
        }
        return "kept \(table).\(column) of row \(rowid)"
    }

    /// Equal when every public property is: `heldValue` is read from the database, and what the
    /// conflict says does not depend on it.
    public static func == (lhs: UndoConflict, rhs: UndoConflict) -> Bool {
        (lhs.table, lhs.rowid, lhs.column, lhs.kept, lhs.keptFrom, lhs.reason)
            == (rhs.table, rhs.rowid, rhs.column, rhs.kept, rhs.keptFrom, rhs.reason)
            && (lhs.restoring, lhs.heldBy) == (rhs.restoring, rhs.heldBy)
    }
}

/// The names on a stack, most recent first.
public struct UndoStackState: Sendable, Equatable {
    /// Names of the actions that can be undone, the next undo first.
    public var undo: [String]
    /// Names of the actions that can be redone, the next redo first.
    public var redo: [String]

    public init(undo: [String], redo: [String]) {
        self.undo = undo
        self.redo = redo
    }
}

extension Dictionary where Key == String, Value == [[SQLiteValue]] {
    /// The keys of the table named `name` (any case, as SQL matches names): those given here
    /// for a table keyed otherwise than by an `INTEGER PRIMARY KEY`, else its rowids in
    /// `numbered`, each a key of one value; nil when there are none.
    func keys(ofTableNamed name: String, numbered: [String: Set<Int64>]) -> [[SQLiteValue]]? {
        let named = { (key: String) in key.caseInsensitiveCompare(name) == .orderedSame }
        let keys =
            first { named($0.key) }?.value
            ?? numbered.first { named($0.key) }?.value.sorted().map { [.integer($0)] }
        guard let keys, !keys.isEmpty else { return nil }
        return keys
    }
}
