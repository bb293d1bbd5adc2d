import Foundation
import SQLiteDatabase
import SQLiteUndo
import TestSupport
import Testing

/// A barrier's log rows are read by its span of `seq` (the log has no index on `barrier`): the
/// span must hold every row of the barrier, whatever happened between its writes.
@Suite struct LogSpanTests {
    struct Stop: Error {}

    /// The file at `path`, with an `items` table, and an engine tracking it.
    static func openItems(at path: String) throws -> (DatabaseQueue, UndoEngine) {
        let db = try DatabaseQueue(path: path)
        try db.write {
            try $0.execute("CREATE TABLE IF NOT EXISTS items(id INTEGER PRIMARY KEY, name TEXT)")
        }
        return (db, try UndoEngine(for: db, tableNames: ["items"]))
    }

    /// A transaction that rolls back takes its log rows with it, so the next rows reuse their
    /// `seq`: a barrier that first wrote in it, after a nested barrier's rows, then writes again
    /// in a later transaction, still finds all its rows.
    @Test func barrierWritingAgainAfterARolledBackTransactionKeepsItsRows() throws {
        let fixture = try Fixture()
        try undoable("Outer") {
            _ = try? fixture.db.write { db in
                try undoable("Inner") {
                    for name in ["i1", "i2", "i3"] {
                        try db.execute("INSERT INTO items(name) VALUES (?)", [.text(name)])
                    }
                }
                try db.execute("INSERT INTO items(name) VALUES ('lost')")
                throw Stop()
            }
            try fixture.execute("INSERT INTO items(name) VALUES ('kept')")
        }
        let stack = fixture.engine.defaultStack
        #expect(stack.state.undo == ["Outer"])
        #expect(try fixture.rows() == [[1, "kept", nil, 0]])
        try stack.undo()
        #expect(try fixture.rows() == [])
        try stack.redo()
        #expect(try fixture.rows() == [[1, "kept", nil, 0]])
    }

    /// Two stacks writing in turn: their spans overlap, each reads only its own rows.
    @Test func interleavedStacksUndoTheirOwnRows() throws {
        let fixture = try Fixture()
        let left = try fixture.engine.stack(id: "left")
        let right = try fixture.engine.stack(id: "right")
        try fixture.execute("INSERT INTO items(id, name) VALUES (1, 'l'), (2, 'r')")
        for round in 1...3 {
            try withUndoStack(left) {
                try undoable("Type", coalescing: "typing") {
                    try fixture.execute(
                        "UPDATE items SET name = name || ? WHERE id = 1", [.text("\(round)")])
                }
            }
            try withUndoStack(right) {
                try undoable("Right \(round)") {
                    try fixture.execute(
                        "UPDATE items SET name = name || ? WHERE id = 2", [.text("\(round)")])
                }
            }
        }
        #expect(left.state.undo == ["Type"])
        #expect(right.state.undo.count == 3)
        try left.undo()
        #expect(try fixture.rows() == [[1, "l", nil, 0], [2, "r123", nil, 0]])
        try right.undo()
        try right.undo()
        #expect(try fixture.rows() == [[1, "l", nil, 0], [2, "r1", nil, 0]])
        try left.redo()
        #expect(try fixture.rows() == [[1, "l123", nil, 0], [2, "r1", nil, 0]])
    }

    /// A file written by an earlier version (no record of the log's migrations, an index on the
    /// log's `barrier` and one on the barriers' stacks, no spans, no order of flips) keeps its
    /// history: spans are read from the log once, and the indexes are dropped.
    @Test func historyOfAFileWithoutSpansStaysUndoable() throws {
        let folder = try TemporaryFolder(prefix: "undo")
        let path = folder.path("old.db")
        let open = { try Self.openItems(at: path) }
        do {
            let (db, engine) = try open()
            let panes = [try engine.stack(id: "a"), try engine.stack(id: "b")]
            for (index, name) in ["x", "y", "z", "w"].enumerated() {
                try withUndoStack(panes[index % 2]) {
                    try undoable("Add \(name)") {
                        try db.write {
                            try $0.execute("INSERT INTO items(name) VALUES (?)", [.text(name)])
                        }
                    }
                }
            }
            try panes[1].undo()
        }
        do {
            let old = try DatabaseQueue(path: path)
            try old.write {
                try $0.execute(
                    """
                    DROP TABLE sqliteundo_migrations;
                    DROP INDEX sqliteundo_barriers_flips;
                    DROP INDEX sqliteundo_barriers_flippedAt;
                    ALTER TABLE sqliteundo_barriers DROP COLUMN flipOrder;
                    ALTER TABLE sqliteundo_barriers DROP COLUMN firstSeq;
                    ALTER TABLE sqliteundo_barriers DROP COLUMN lastSeq;
                    CREATE INDEX sqliteundo_log_barrier ON sqliteundo_log(barrier);
                    CREATE INDEX sqliteundo_barriers_stack
                        ON sqliteundo_barriers(stackId, list, position);
                    """)
            }
        }
        let (db, engine) = try open()
        let indexes = try db.read {
            try $0.fetchAll(
                String.self,
                "SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE 'sqliteundo%'")
        }
        #expect(
            indexes.sorted() == [
                "sqliteundo_barriers_flippedAt", "sqliteundo_barriers_flips",
                "sqliteundo_barriers_openToMerging", "sqliteundo_barriers_superseded",
                "sqliteundo_log_moves", "sqliteundo_retired_moves_order",
            ])
        let migrations = try db.read {
            try Migrator.appliedMigrations($0, recordTable: "sqliteundo_migrations")
        }
        #expect(
            migrations == [
                "sqliteundo-1-tables", "sqliteundo-2-inverted", "sqliteundo-3-spans",
                "sqliteundo-4-flips", "sqliteundo-5-flip-order", "sqliteundo-6-superseded",
                "sqliteundo-7-column-places", "sqliteundo-8-retired-moves",
                "sqliteundo-9-kept-by-replay", "sqliteundo-10-closed-to-merging",
                "sqliteundo-11-retired-arrivals", "sqliteundo-12-packed-changes",
                "sqliteundo-13-steps", "sqliteundo-14-merge-breaks", "sqliteundo-15-tree",
                "sqliteundo-16-key-moves", "sqliteundo-17-key-moves-unbound",
                "sqliteundo-18-previous-flips",
            ])
        let names = { try db.read { try $0.fetchAll(String.self, "SELECT name FROM items") } }
        let a = try engine.stack(id: "a")
        let b = try engine.stack(id: "b")
        #expect(try names() == ["x", "y", "z"])
        try b.redo()
        #expect(try names() == ["x", "y", "z", "w"])
        try a.undo()
        try b.undo()
        try b.undo()
        #expect(try names() == ["x"])
        try a.undo()
        #expect(try names() == [])
    }

    /// A file whose exact undos flipped entries before flips had an order: the migration numbers
    /// them by when they took effect (ties by id), and the next flip comes after them.
    @Test func flipsOfAFileWithoutTheirOrderAreNumbered() throws {
        let folder = try TemporaryFolder(prefix: "undo")
        let path = folder.path("undo.db")
        let open = { () throws -> (DatabaseQueue, UndoEngine) in
            let db = try DatabaseQueue(path: path)
            try db.write {
                try $0.execute(
                    "CREATE TABLE IF NOT EXISTS items(id INTEGER PRIMARY KEY, name TEXT)")
                try $0.execute("INSERT OR IGNORE INTO items VALUES (1, 'x'), (2, 'y')")
            }
            return (db, try UndoEngine(for: db, tableNames: ["items"]))
        }
        let rename = { (db: DatabaseQueue, id: Int, name: String) in
            try undoable("Rename \(id)") {
                try db.write {
                    try $0.execute(
                        "UPDATE items SET name = ? WHERE id = ?",
                        [.text(name), .integer(Int64(id))])
                }
            }
        }
        do {
            let (db, engine) = try open()
            try rename(db, 1, "X")
            try rename(db, 2, "Y")
            try engine.defaultStack.undo()
            try engine.defaultStack.undo()
            try engine.defaultStack.redo()
        }
        let flips = { (db: DatabaseQueue) in
            try db.read {
                try $0.fetchAll(
                    Row.self,
                    """
                    SELECT name, flipOrder FROM sqliteundo_barriers
                    WHERE flippedAt IS NOT NULL ORDER BY flipOrder
                    """
                ).map(\.values)
            }
        }
        do {
            let old = try DatabaseQueue(path: path)
            #expect(try flips(old) == [["Rename 2", 1], ["Rename 1", 3]])
            try old.write {
                try $0.execute(
                    """
                    DELETE FROM sqliteundo_migrations WHERE name = 'sqliteundo-5-flip-order';
                    DROP INDEX sqliteundo_barriers_flips;
                    DROP INDEX sqliteundo_barriers_flippedAt;
                    ALTER TABLE sqliteundo_barriers DROP COLUMN flipOrder;
                    """)
            }
        }
        let (db, engine) = try open()
        #expect(try flips(db) == [["Rename 1", 1], ["Rename 2", 2]])
        try engine.defaultStack.undo()
        #expect(try flips(db) == [["Rename 2", 2], ["Rename 1", 3]])
        let names = try db.read { try $0.fetchAll(String.self, "SELECT name FROM items") }
        #expect(names == ["x", "y"])
    }

    /// A log row's `seq` is never given twice: the newest rows gone with their entry (the
    /// history removed), the next rows still come after them.
    @Test func aSeqIsNeverGivenTwice() throws {
        let fixture = try Fixture()
        let stack = fixture.engine.defaultStack
        try undoable("Add") { try fixture.execute("INSERT INTO items(name) VALUES ('a')") }
        let highest = try fixture.db.read {
            try $0.fetchOne(Int64.self, "SELECT max(seq) FROM sqliteundo_log") ?? 0
        }
        try stack.removeAll()
        #expect(try fixture.logCount() == 0)
        try undoable("Add b") { try fixture.execute("INSERT INTO items(name) VALUES ('b')") }
        let seqs = try fixture.db.read {
            try $0.fetchAll(
                Int64.self, "SELECT seq FROM sqliteundo_log WHERE barrier != 0 ORDER BY seq")
        }
        #expect(seqs.count == 1)
        #expect(seqs.allSatisfy { $0 > highest })
    }

    /// A transaction's first log row gets the `seq` after the log's end that the engine's last
    /// commit read, unless the file changed since: another engine's rows in between, or another
    /// program emptying the log (which lowers its end), still leave every action undoable. (The
    /// action after the log was emptied is taken on a stack of its own: the default stack's
    /// entries, gone from the file, are left alone.)
    @Test func actionsAfterAnotherConnectionWroteTheLogStayUndoable() throws {
        let folder = try TemporaryFolder(prefix: "undo")
        let path = folder.path("shared.db")
        let open = { try Self.openItems(at: path) }
        let (db, engine) = try open()
        let (otherDB, otherEngine) = try open()
        let names = {
            try db.read { try $0.fetchAll(String.self, "SELECT name FROM items ORDER BY id") }
        }
        try undoable("Add") { try db.write { try $0.execute("INSERT INTO items VALUES (1, 'a')") } }
        try withUndoStack(try otherEngine.stack(id: "other")) {
            try undoable("Add others") {
                try otherDB.write {
                    try $0.execute("INSERT INTO items VALUES (2, 'b'), (3, 'c'), (4, 'd')")
                }
            }
        }
        try undoable("Rename") {
            try db.write { try $0.execute("UPDATE items SET name = 'a2' WHERE id = 1") }
        }
        try engine.defaultStack.undo()
        #expect(try names() == ["a", "b", "c", "d"])
        try engine.defaultStack.redo()
        #expect(try names() == ["a2", "b", "c", "d"])
        try undoable("Add e") {
            try db.write { try $0.execute("INSERT INTO items VALUES (5, 'e')") }
        }

        try otherDB.write {
            try $0.execute("DELETE FROM sqliteundo_log; DELETE FROM sqliteundo_barriers")
        }
        let afterwards = try engine.stack(id: "afterwards")
        try withUndoStack(afterwards) {
            try undoable("Rename again") {
                try db.write { try $0.execute("UPDATE items SET name = 'a3' WHERE id = 1") }
            }
        }
        #expect(
            try db.read { try $0.fetchOne(Int64.self, "SELECT min(seq) FROM sqliteundo_log") } == 1)
        try afterwards.undo()
        #expect(try names() == ["a2", "b", "c", "d", "e"])
        withExtendedLifetime(otherEngine) {}
    }
}
