import Foundation
import SQLiteDatabase
import SQLiteUndo
import TestSupport
import Testing

/// Tables keyed otherwise than by an `INTEGER PRIMARY KEY` (a text key, a key of several
/// columns, `WITHOUT ROWID`, `INTEGER PRIMARY KEY DESC`) are tracked by their keys: undo and
/// redo are exact, keys changed and swapped come back, `VACUUM`-like renumbering of rowids
/// changes nothing, and events and histories name the rows by their keys.
@Suite struct KeyedTableTests {
    /// Each schema's table `t` has a one-column key `k` and a value `v`.
    static let singleKeySchemas = [
        "CREATE TABLE t(k TEXT PRIMARY KEY, v)",
        "CREATE TABLE t(k TEXT PRIMARY KEY NOT NULL, v) WITHOUT ROWID",
        "CREATE TABLE t(k INT PRIMARY KEY, v)",
        "CREATE TABLE t(k INTEGER PRIMARY KEY DESC, v)",
        "CREATE TABLE t(k BLOB PRIMARY KEY, v ANY) STRICT",
    ]

    /// A table `t` keyed by `k` with two values `v` and `w`, in every kind of key and by a rowid.
    static let twoValueSchemas = [
        "CREATE TABLE t(k TEXT PRIMARY KEY, v, w)",
        "CREATE TABLE t(k TEXT PRIMARY KEY NOT NULL, v, w) WITHOUT ROWID",
        "CREATE TABLE t(k INTEGER PRIMARY KEY DESC, v, w)",
        "CREATE TABLE t(k INTEGER PRIMARY KEY, v, w)",
    ]

    private func rows(_ db: DatabaseQueue, _ table: String = "t") throws -> [[SQLiteValue]] {
        try db.read { db in
            try db.fetchAll(Row.self, "SELECT * FROM \(table) ORDER BY 1, 2").map(\.values)
        }
    }

    private func execute(_ db: DatabaseQueue, _ sql: String) throws {
        try db.write { try $0.execute(sql) }
    }

    /// A new database where `scripts` ran in turn (the table `t` and its rows), and an engine
    /// tracking `t`.
    private func tracked(_ scripts: String...) throws -> (DatabaseQueue, UndoEngine) {
        let db = try DatabaseQueue()
        for script in scripts { try execute(db, script) }
        return (db, try UndoEngine(for: db, tableNames: ["t"]))
    }

    @Test(arguments: singleKeySchemas)
    func everyKindOfChangeUndoesAndRedoesExactly(schema: String) throws {
        let (db, engine) = try tracked(
            schema, "INSERT INTO t VALUES (X'01', 'one'), (X'02', 'two'), (X'03', 'three')")
        let stack = engine.defaultStack
        var states = [try rows(db)]
        for sql in [
            "UPDATE t SET v = 'ONE' WHERE k = X'01'",
            "DELETE FROM t WHERE k = X'02'",
            "INSERT INTO t VALUES (X'04', 'four')",
            "UPDATE t SET k = X'05', v = 'five' WHERE k = X'03'",
            "UPDATE t SET v = v || '!'",
        ] {
            try undoable(sql) { try execute(db, sql) }
            states.append(try rows(db))
        }
        #expect(states[1] == [[.blob([1]), "ONE"], [.blob([2]), "two"], [.blob([3]), "three"]])
        for state in states.dropLast().reversed() {
            try stack.undo()
            #expect(try rows(db) == state)
        }
        for state in states.dropFirst() {
            try stack.redo()
            #expect(try rows(db) == state)
        }
    }

    @Test(arguments: singleKeySchemas)
    func aSwapOfKeysUndoes(schema: String) throws {
        let (db, engine) = try tracked(
            schema, "INSERT INTO t VALUES (X'01', 'a'), (X'02', 'b'), (X'03', 'c')")
        try undoable("Rotate") {
            try db.write { db in
                try db.execute("UPDATE t SET k = X'09' WHERE k = X'01'")
                try db.execute("UPDATE t SET k = X'01' WHERE k = X'02'")
                try db.execute("UPDATE t SET k = X'02' WHERE k = X'03'")
                try db.execute("UPDATE t SET k = X'03' WHERE k = X'09'")
            }
        }
        let rotated: [[SQLiteValue]] = [[.blob([1]), "b"], [.blob([2]), "c"], [.blob([3]), "a"]]
        #expect(try rows(db) == rotated)
        try engine.defaultStack.undo()
        #expect(try rows(db) == [[.blob([1]), "a"], [.blob([2]), "b"], [.blob([3]), "c"]])
        try engine.defaultStack.redo()
        #expect(try rows(db) == rotated)
    }

    /// An undo of many rows names their keys in the order the log first named them (their
    /// numbers): a bulk update of a table keyed by two columns, read in one query.
    @Test func anEventNamesEveryKeyOfABulkUndoInTheOrderTheLogNamedThem() throws {
        let (db, engine) = try tracked(
            "CREATE TABLE t(a TEXT, b INTEGER, v, PRIMARY KEY (a, b))",
            "INSERT INTO t VALUES ('y', 2, 0), ('x', 1, 0), ('z', 3, 0), ('x', 4, 0)")
        try undoable("First") { try execute(db, "UPDATE t SET v = 1 WHERE a = 'z'") }
        try undoable("All") { try execute(db, "UPDATE t SET v = v + 10") }
        let event = try engine.defaultStack.undo()
        // "First" named z; the bulk update then met the rows in the table's rowid order.
        #expect(event?.keys(forTable: "t") == [["z", 3], ["y", 2], ["x", 1], ["x", 4]])
        #expect(try rows(db) == [["x", 1, 0], ["x", 4, 0], ["y", 2, 0], ["z", 3, 1]])
    }

    /// `VACUUM` may renumber the rowids of a table without an `INTEGER PRIMARY KEY`: the log
    /// names rows by key, so the undo still changes the row it changed.
    @Test func renumberedRowidsChangeNothing() throws {
        let (db, engine) = try tracked(
            "CREATE TABLE t(k TEXT PRIMARY KEY, v)",
            "INSERT INTO t VALUES ('a', 1), ('b', 2), ('c', 3)")
        try undoable("Set") { try execute(db, "UPDATE t SET v = 30 WHERE k = 'c'") }
        try undoable("Remove") { try execute(db, "DELETE FROM t WHERE k = 'b'") }
        try withUndoDisabled { try execute(db, "DELETE FROM t WHERE k = 'a'") }
        let before = try db.read { try $0.fetchAll(Int64.self, "SELECT rowid FROM t") }
        try db.withoutTransaction { try $0.execute("VACUUM") }
        try execute(db, "UPDATE t SET rowid = rowid + 100")
        let after = try db.read { try $0.fetchAll(Int64.self, "SELECT rowid FROM t") }
        #expect(before != after)
        let restored = try engine.defaultStack.undo()
        #expect(restored?.keys(forTable: "t") == [["b"]])
        try engine.defaultStack.undo()
        #expect(try rows(db) == [["b", 2], ["c", 3]])
        try engine.defaultStack.redo()
        try engine.defaultStack.redo()
        #expect(try rows(db) == [["c", 30]])
    }

    /// A join table keyed by two columns, `WITHOUT ROWID`, whose rows a parent's delete
    /// cascades: the undo brings back the parent and every join row.
    @Test func aCascadeThroughAJoinTableUndoes() throws {
        let db = try DatabaseQueue()
        try execute(
            db,
            """
            CREATE TABLE tags(name TEXT PRIMARY KEY NOT NULL, color TEXT);
            CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT);
            CREATE TABLE note_tags(
                noteId INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
                tag TEXT NOT NULL REFERENCES tags(name) ON DELETE CASCADE ON UPDATE CASCADE,
                PRIMARY KEY(noteId, tag)) WITHOUT ROWID;
            INSERT INTO tags VALUES ('home', 'red'), ('work', 'blue');
            INSERT INTO notes VALUES (1, 'a'), (2, 'b');
            INSERT INTO note_tags VALUES (1, 'home'), (1, 'work'), (2, 'work');
            """)
        let engine = try UndoEngine(for: db, tableNames: ["tags", "notes", "note_tags"])
        let before = (try rows(db, "tags"), try rows(db, "note_tags"))
        try undoable("Delete Tag") { try execute(db, "DELETE FROM tags WHERE name = 'work'") }
        #expect(try rows(db, "note_tags") == [[1, "home"]])
        try undoable("Rename Tag") {
            try execute(db, "UPDATE tags SET name = 'house' WHERE name = 'home'")
        }
        #expect(try rows(db, "note_tags") == [[1, "house"]])
        try engine.defaultStack.undo()
        #expect(try rows(db, "note_tags") == [[1, "home"]])
        let event = try engine.defaultStack.undo()
        #expect(try rows(db, "tags") == before.0)
        #expect(try rows(db, "note_tags") == before.1)
        #expect(event?.keys(forTable: "tags") == [["work"]])
        #expect(Set(event?.keys(forTable: "note_tags") ?? []) == [[1, "work"], [2, "work"]])
        try engine.defaultStack.redo()
        #expect(try rows(db, "note_tags") == [[1, "home"]])
    }

    /// `INSERT OR REPLACE` deletes the row holding the key, or (in a `WITHOUT ROWID` table) a
    /// row holding a unique value: the undo brings the replaced row back.
    @Test(arguments: ["", " WITHOUT ROWID"])
    func aReplacedRowComesBack(options: String) throws {
        let db = try DatabaseQueue()
        try execute(
            db, "CREATE TABLE t(k TEXT PRIMARY KEY NOT NULL, email TEXT UNIQUE, v)\(options)")
        try execute(db, "INSERT INTO t VALUES ('a', 'a@x', 1), ('b', 'b@x', 2)")
        let engine = try UndoEngine(for: db, tableNames: ["t"])
        try undoable("Replace") {
            try execute(db, "INSERT OR REPLACE INTO t VALUES ('a', 'b@x', 10)")
        }
        #expect(try rows(db) == [["a", "b@x", 10]])
        try engine.defaultStack.undo()
        #expect(try rows(db) == [["a", "a@x", 1], ["b", "b@x", 2]])
        try engine.defaultStack.redo()
        #expect(try rows(db) == [["a", "b@x", 10]])
    }

    /// A table keyed by text still has a rowid, and an `UPDATE OR REPLACE` that moves a row onto
    /// another's rowid deletes that row without a trigger: the undo brings it back.
    @Test func aRowReplacedThroughTheRowidOfAKeyedTableComesBack() throws {
        let (db, engine) = try tracked(
            "CREATE TABLE t(k TEXT PRIMARY KEY NOT NULL, v)",
            "INSERT INTO t(rowid, k, v) VALUES (1, 'a', 1), (2, 'b', 2)")
        try undoable("Move") { try execute(db, "UPDATE OR REPLACE t SET rowid = 2 WHERE k = 'a'") }
        #expect(try rows(db) == [["a", 1]])
        let event = try engine.defaultStack.undo()
        #expect(try rows(db) == [["a", 1], ["b", 2]])
        #expect(event?.keys(forTable: "t") == [["b"]])
        try engine.defaultStack.redo()
        #expect(try rows(db) == [["a", 1]])
    }

    /// Another stack's later edit of the row is kept, and the conflict names the row by the
    /// number the engine gives its key, which `key(of:id:)` turns back into the key.
    @Test func anotherStacksEditIsKeptAndNamedByKey() throws {
        struct Keyed: Table { static let tableName = "t" }
        let (db, engine) = try tracked(
            "CREATE TABLE t(a TEXT, b INTEGER, v, PRIMARY KEY(a, b))",
            "INSERT INTO t VALUES ('x', 1, 'old'), ('x', 2, 'other')")
        let mine = try engine.stack(id: "mine")
        let theirs = try engine.stack(id: "theirs")
        try withUndoStack(mine) {
            try undoable("Mine") {
                try execute(db, "UPDATE t SET v = 'mine' WHERE a = 'x'")
            }
        }
        try withUndoStack(theirs) {
            try undoable("Theirs") {
                try execute(db, "UPDATE t SET v = 'theirs' WHERE a = 'x' AND b = 2")
            }
        }
        let event = try mine.undo()
        #expect(try rows(db) == [["x", 1, "old"], ["x", 2, "theirs"]])
        let conflict = try #require(event?.conflicts.first)
        #expect(event?.conflicts.count == 1)
        #expect(conflict.column == "v")
        #expect(try engine.key(of: Keyed.self, id: conflict.rowid) == ["x", 2])
        #expect(try engine.id(of: Keyed.self, key: ["x", 2]) == conflict.rowid)
        #expect(try engine.id(of: Keyed.self, key: ["y", 9]) == nil)
        // The redo of "Mine" writes only the row it restored.
        let kept = try engine.history(of: Keyed.self, key: ["x", 2])
        #expect(kept.map(\.stackID) == ["theirs"])
        let restored = try engine.history(of: Keyed.self, key: ["x", 1])
        #expect(restored.map(\.stackID) == ["mine"])
        #expect(restored.map(\.isUndone) == [true])
    }

    /// A row kept whole (another stack edited the row this action inserted) is named as that
    /// stack's work, also when the undoing stack undid an edit of the same row in between,
    /// whose undo wrote the row after the other stack did.
    @Test(arguments: twoValueSchemas)
    func aRowKeptWholeIsNamedAsTheOtherStacksWork(schema: String) throws {
        let (db, engine) = try tracked(schema)
        let mine = try engine.stack(id: "mine")
        let theirs = try engine.stack(id: "theirs")
        try withUndoStack(mine) {
            try undoable("Add") { try execute(db, "INSERT INTO t VALUES (1, 1, 'a')") }
            try undoable("Edit") { try execute(db, "UPDATE t SET w = 'b'") }
        }
        try withUndoStack(theirs) {
            try undoable("Theirs") { try execute(db, "UPDATE t SET v = 2") }
        }
        #expect(try mine.undo()?.conflicts == [])
        let undo = try #require(try mine.undo())
        #expect(undo.conflicts.map(\.keptFrom) == ["theirs"])
        #expect(undo.conflicts.map(\.column) == [nil])
        #expect(try rows(db).map { Array($0[1...]) } == [[2, "a"]])
    }

    /// A row this action inserted that another stack gave a new key since is someone else's
    /// change: the undo keeps it, at its new key, and names it and that stack.
    @Test(arguments: twoValueSchemas)
    func anInsertedRowAnotherStackRekeyedIsKeptAndNamed(schema: String) throws {
        struct Keyed: Table { static let tableName = "t" }
        let (db, engine) = try tracked(schema)
        let mine = try engine.stack(id: "mine")
        let theirs = try engine.stack(id: "theirs")
        try withUndoStack(mine) {
            try undoable("Add") { try execute(db, "INSERT INTO t VALUES (1, 1, 'a')") }
        }
        try withUndoStack(theirs) {
            try undoable("Rekey") { try execute(db, "UPDATE t SET k = 2") }
        }
        let undo = try #require(try mine.undo())
        let kept = try rows(db)
        #expect(kept.map { Array($0[1...]) } == [[1, "a"]])
        let conflict = try #require(undo.conflicts.first)
        #expect(undo.conflicts.count == 1)
        #expect(conflict.column == nil)
        #expect(conflict.keptFrom == "theirs")
        #expect(try engine.key(of: Keyed.self, id: conflict.rowid) == [kept[0][0]])
        #expect(undo.keys(forTable: "t") == [[kept[0][0]]])
    }

    /// One stack's steps before and after a key change of their row (an insert, an edit, a
    /// delete), in every kind of keyed table: undone one by one, each brings back the state
    /// before it, with no conflict, and the redos the states after, twice over. Each step is
    /// found where the row is at that point of history, moved back and forth by the key
    /// change's undo and redo, and by the delete's.
    @Test(arguments: twoValueSchemas)
    func stepsAroundAKeyChangeUndoAndRedoInOrder(schema: String) throws {
        let scripts = [
            ["INSERT INTO t VALUES (1, 1, 'a')", "UPDATE t SET k = 2", "DELETE FROM t"],
            ["INSERT INTO t VALUES (1, 1, 'a')", "UPDATE t SET k = 2", "UPDATE t SET w = 'b'"],
            ["UPDATE t SET w = 'b'", "UPDATE t SET k = 2", "UPDATE t SET v = 3", "DELETE FROM t"],
        ]
        for steps in scripts {
            let (db, engine) = try tracked(schema)
            if steps[0].hasPrefix("UPDATE") { try execute(db, "INSERT INTO t VALUES (1, 1, 'a')") }
            var states = [try rows(db)]
            for step in steps {
                try undoable(step) { try execute(db, step) }
                states.append(try rows(db))
            }
            let stack = engine.defaultStack
            for _ in 0..<2 {
                for state in states.dropLast().reversed() {
                    #expect(try stack.undo()?.conflicts == [], "\(steps)")
                    #expect(try rows(db) == state, "\(steps)")
                }
                for state in states.dropFirst() {
                    #expect(try stack.redo()?.conflicts == [], "\(steps)")
                    #expect(try rows(db) == state, "\(steps)")
                }
            }
            #expect(stack.history.undo.count == steps.count, "\(steps)")
        }
    }

    /// A row another stack gave a new key since an action edited it (a rename, in every kind
    /// of keyed table) is followed there: the undo restores its value at the new key, and the
    /// event names the row by it.
    @Test(arguments: singleKeySchemas)
    func anUndoFollowsARowAnotherStackRekeyed(schema: String) throws {
        let (db, engine) = try tracked(schema, "INSERT INTO t VALUES (X'01', 'one')")
        try followsTheRow(
            db, engine, edit: "UPDATE t SET v = 'ONE' WHERE k = X'01'",
            rekey: "UPDATE t SET k = X'09' WHERE k = X'01'",
            expecting: (key: [.blob([9])], rows: [[.blob([9]), "one"]]))
    }

    /// The same through a key of two columns, and through `ON UPDATE CASCADE` changing the key
    /// of a join table's row when its parent is renamed.
    @Test func anUndoFollowsARowRekeyedThroughACompositeKeyOrACascade() throws {
        let (pairs, pairsEngine) = try tracked(
            "CREATE TABLE t(a TEXT, b INTEGER, v, PRIMARY KEY(a, b))",
            "INSERT INTO t VALUES ('x', 1, 'old')")
        try followsTheRow(
            pairs, pairsEngine, edit: "UPDATE t SET v = 'new'",
            rekey: "UPDATE t SET b = 2 WHERE a = 'x'",
            expecting: (key: ["x", 2], rows: [["x", 2, "old"]]))
        let (tags, tagsEngine) = try tracked(
            """
            PRAGMA foreign_keys = ON;
            CREATE TABLE tags(name TEXT PRIMARY KEY NOT NULL);
            CREATE TABLE t(noteId INTEGER NOT NULL,
                tag TEXT NOT NULL REFERENCES tags(name) ON UPDATE CASCADE, v,
                PRIMARY KEY(noteId, tag)) WITHOUT ROWID;
            INSERT INTO tags VALUES ('home');
            INSERT INTO t VALUES (1, 'home', 'old');
            """)
        try followsTheRow(
            tags, tagsEngine, edit: "UPDATE t SET v = 'new'",
            rekey: "UPDATE tags SET name = 'house'",
            expecting: (key: [1, "house"], rows: [[1, "house", "old"]]))
    }

    /// Runs `edit` on the stack "mine", then `rekey` on "theirs", and undoes "mine": it restores
    /// the row, which `expected.key` names now, without a conflict, to `expected.rows`.
    private func followsTheRow(
        _ db: DatabaseQueue, _ engine: UndoEngine, edit: String, rekey: String,
        expecting expected: (key: [SQLiteValue], rows: [[SQLiteValue]])
    ) throws {
        let mine = try engine.stack(id: "mine")
        let theirs = try engine.stack(id: "theirs")
        try withUndoStack(mine) { try undoable("Edit") { try execute(db, edit) } }
        try withUndoStack(theirs) { try undoable("Rekey") { try execute(db, rekey) } }
        let event = try #require(try mine.undo())
        #expect(event.conflicts == [])
        #expect(event.keys(forTable: "t") == [expected.key])
        #expect(try rows(db) == expected.rows)
    }

    /// A key another stack gave a new row since an action renamed a row away from it: the undo
    /// keeps the new name, restores the rest, and names the key, the row holding it and the
    /// stack that put it there.
    @Test(arguments: singleKeySchemas.filter { $0.contains("TEXT") })
    func aKeyAnotherStackTookIsKeptAndNamed(schema: String) throws {
        struct Keyed: Table { static let tableName = "t" }
        let (db, engine) = try tracked(schema, "INSERT INTO t VALUES ('a', 1)")
        let mine = try engine.stack(id: "mine")
        let theirs = try engine.stack(id: "theirs")
        try withUndoStack(mine) {
            try undoable("Rename") { try execute(db, "UPDATE t SET k = 'b', v = 2 WHERE k = 'a'") }
        }
        try withUndoStack(theirs) {
            try undoable("New") { try execute(db, "INSERT INTO t VALUES ('a', 'theirs')") }
        }
        let event = try #require(try mine.undo())
        #expect(try rows(db) == [["a", "theirs"], ["b", 1]])
        let holder = try #require(try engine.id(of: Keyed.self, key: ["a"]))
        let renamed = try #require(try engine.id(of: Keyed.self, key: ["b"]))
        #expect(
            event.conflicts == [
                UndoConflict(
                    table: "t", rowid: renamed, column: "k", kept: "b", keptFrom: "theirs",
                    reason: .constraint, restoring: "a", heldBy: holder)
            ])
        #expect(
            event.conflicts.map(\.description) == [
                "kept t.k of row \(renamed): row \(holder) holds 'a' now"
            ])
    }

    /// A key declared `COLLATE NOCASE` names one row in any case: an undo addressed by the
    /// key as logged finds it after a change of case.
    @Test func aKeyComparedWithoutCaseNamesOneRow() throws {
        let (db, engine) = try tracked(
            "CREATE TABLE t(k TEXT PRIMARY KEY COLLATE NOCASE, v)",
            "INSERT INTO t VALUES ('abc', 1)")
        try undoable("Set") { try execute(db, "UPDATE t SET v = 2 WHERE k = 'ABC'") }
        try undoable("Case") { try execute(db, "UPDATE t SET k = 'ABC' WHERE k = 'abc'") }
        try undoable("Again") { try execute(db, "UPDATE t SET v = 3 WHERE k = 'abc'") }
        #expect(try rows(db) == [["ABC", 3]])
        try engine.defaultStack.undo()
        #expect(try rows(db) == [["ABC", 2]])
        try engine.defaultStack.undo()
        #expect(try rows(db) == [["abc", 2]])
        try engine.defaultStack.undo()
        #expect(try rows(db) == [["abc", 1]])
    }

    /// What SQLite did, on a table keyed by text: a row an `OR IGNORE` or an application
    /// trigger's `RAISE(IGNORE)` skipped is not the action's (another stack's later edit of it
    /// survives the undo), an upsert's update and a NOT NULL default an `OR REPLACE` filled in
    /// undo exactly.
    @Test func whatSQLiteDidIsRecordedOnAKeyedTable() throws {
        let db = try DatabaseQueue()
        try execute(
            db,
            """
            CREATE TABLE t(k TEXT PRIMARY KEY NOT NULL, v INTEGER NOT NULL DEFAULT 7,
                locked INTEGER NOT NULL DEFAULT 0, note TEXT UNIQUE) WITHOUT ROWID;
            CREATE TRIGGER keepLocked BEFORE UPDATE ON t WHEN OLD.locked AND NEW.locked
            BEGIN SELECT RAISE(IGNORE); END;
            INSERT INTO t VALUES ('a', 1, 0, 'na'), ('b', 2, 1, 'nb'), ('c', 3, 0, 'nc');
            """)
        let engine = try UndoEngine(for: db, tableNames: ["t"])
        let mine = try engine.stack(id: "mine")
        let theirs = try engine.stack(id: "theirs")
        try withUndoStack(mine) {
            try undoable("All") {
                try execute(db, "UPDATE t SET v = v * 10")
                try execute(db, "UPDATE OR IGNORE t SET note = 'nc' WHERE k = 'a'")
                try execute(
                    db, "INSERT INTO t(k, v) VALUES ('c', 0) ON CONFLICT(k) DO UPDATE SET v = 99")
                try execute(db, "UPDATE OR REPLACE t SET v = NULL WHERE k = 'a'")
            }
        }
        #expect(
            try rows(db) == [["a", 7, 0, "na"], ["b", 2, 1, "nb"], ["c", 99, 0, "nc"]])
        // "b" was skipped by its trigger; "a"'s note collided and was skipped by OR IGNORE.
        #expect(try mine.rows(of: mine.history.undo[0]).keys(forTable: "t") == [["a"], ["c"]])
        try withUndoStack(theirs) {
            try undoable("Unlock") {
                try execute(db, "UPDATE t SET locked = 0, v = 5 WHERE k = 'b'")
            }
        }
        let event = try mine.undo()
        #expect(event?.conflicts == [])
        #expect(try rows(db) == [["a", 1, 0, "na"], ["b", 5, 0, "nb"], ["c", 3, 0, "nc"]])
        try mine.redo()
        #expect(try rows(db) == [["a", 7, 0, "na"], ["b", 5, 0, "nb"], ["c", 99, 0, "nc"]])
    }

    /// SQLite's update hook never reports a `WITHOUT ROWID` table's rows: an application
    /// trigger's write there (a counter) during a replay is still seen and set back.
    @Test func aTriggersWriteToAWithoutRowidTableIsSetBack() throws {
        let db = try DatabaseQueue()
        try execute(
            db,
            """
            CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE counts(what TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY(what))
                WITHOUT ROWID;
            CREATE TABLE folders(id INTEGER PRIMARY KEY, touched INTEGER NOT NULL);
            INSERT INTO counts VALUES ('items', 0);
            INSERT INTO folders VALUES (1, 0);
            CREATE TRIGGER countUp AFTER INSERT ON items BEGIN
                UPDATE counts SET n = n + 1 WHERE what = 'items';
                UPDATE folders SET touched = touched + 1;
            END;
            CREATE TRIGGER countDown AFTER DELETE ON items BEGIN
                UPDATE counts SET n = n - 1 WHERE what = 'items';
                UPDATE folders SET touched = touched + 1;
            END;
            """)
        let engine = try UndoEngine(for: db, tableNames: ["items", "counts", "folders"])
        try undoable("Add") { try execute(db, "INSERT INTO items(name) VALUES ('a'), ('b')") }
        try undoable("Add") { try execute(db, "INSERT INTO items(name) VALUES ('c')") }
        #expect(try rows(db, "counts") == [["items", 3]])
        try engine.defaultStack.undo()
        #expect(try rows(db, "counts") == [["items", 2]])
        try engine.defaultStack.undo()
        #expect(try rows(db, "counts") == [["items", 0]])
        try engine.defaultStack.redo()
        try engine.defaultStack.redo()
        #expect(try rows(db, "counts") == [["items", 3]])
        #expect(try rows(db, "items").count == 3)
    }

    /// The numbers are kept in the file: after a restart the history still names the rows, and
    /// a migration that changes the key numbers the rows anew instead of failing.
    @Test func theNumbersSurviveARestartAndAChangedKey() throws {
        let folder = try TemporaryFolder(prefix: "keyed")
        let path = folder.path("keyed.db")
        do {
            let db = try DatabaseQueue(path: path)
            defer { db.close() }
            try execute(db, "CREATE TABLE t(a TEXT, b TEXT, v, PRIMARY KEY(a, b)) WITHOUT ROWID")
            try execute(db, "INSERT INTO t VALUES ('x', 'y', 1)")
            let engine = try UndoEngine(for: db, tableNames: ["t"])
            let stack = try engine.stack(id: "pane")
            try withUndoStack(stack) {
                try undoable("Set") { try execute(db, "UPDATE t SET v = 2") }
                try undoable("Move") { try execute(db, "UPDATE t SET b = 'z'") }
            }
        }
        let db = try DatabaseQueue(path: path)
        defer { db.close() }
        let engine = try UndoEngine(for: db, tableNames: ["t"])
        let stack = try engine.stack(id: "pane")
        #expect(try stack.undo()?.keys(forTable: "t") == [["x", "y"]])
        #expect(try rows(db) == [["x", "y", 2]])
        try engine.migrate { db in
            try db.execute(
                """
                CREATE TABLE t2(a TEXT, b TEXT, v, PRIMARY KEY(a)) WITHOUT ROWID;
                INSERT INTO t2 SELECT * FROM t; DROP TABLE t; ALTER TABLE t2 RENAME TO t;
                """)
        }
        try withUndoStack(stack) {
            try undoable("Set again") { try execute(db, "UPDATE t SET v = 3") }
        }
        #expect(try stack.undo()?.keys(forTable: "t") == [["x"]])
        #expect(try rows(db) == [["x", "y", 2]])
        // "Set", from before the key changed, names a row of the old key: none now.
        let old = try stack.undo()
        #expect(old?.conflicts.map(\.column) == [nil])
        #expect(try rows(db) == [["x", "y", 2]])
    }

    /// A rowid table's key that is not declared NOT NULL may hold NULL (a quirk SQLite keeps):
    /// such a row has no key to be named by, and is not recorded.
    @Test func aRowWhoseKeyIsNullIsNotRecorded() throws {
        let db = try DatabaseQueue()
        try execute(db, "CREATE TABLE t(k TEXT PRIMARY KEY, v)")
        let engine = try UndoEngine(for: db, tableNames: ["t"])
        try undoable("Add") { try execute(db, "INSERT INTO t VALUES (NULL, 1), ('a', 2)") }
        let event = try engine.defaultStack.undo()
        #expect(event?.keys(forTable: "t") == [["a"]])
        #expect(try rows(db) == [[nil, 1]])
    }
}
