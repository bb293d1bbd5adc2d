import SQLiteDatabase
import SQLiteUndo
import Testing

/// UNIQUE values and integer keys swapped or rotated inside one barrier undo and redo: no order
/// of row-by-row restores works, so the replay parks a row out of the way first.
@Suite struct UniqueSwapTests {
    let fixture: Fixture

    init() throws {
        fixture = try Fixture(
            schema: """
                CREATE TABLE slots(id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, label TEXT);
                INSERT INTO slots VALUES (1, 'x', 'one'), (2, 'y', 'two'), (3, 'z', 'three');
                """,
            tables: ["slots"])
    }

    func change(_ sql: String) throws {
        try undoable("Reorder") { try fixture.execute(sql) }
    }

    func roundTrip(_ sql: String) throws {
        let start = try fixture.rows("slots")
        try change(sql)
        let end = try fixture.rows("slots")
        #expect(end != start)
        #expect(try fixture.engine.defaultStack.undo()?.conflicts == [])
        #expect(try fixture.rows("slots") == start)
        #expect(try fixture.engine.defaultStack.redo()?.conflicts == [])
        #expect(try fixture.rows("slots") == end)
        #expect(try fixture.engine.defaultStack.undo()?.conflicts == [])
        #expect(try fixture.rows("slots") == start)
        #expect(fixture.engine.defaultStack.state.redo == ["Reorder"])
    }

    @Test func aSwapOfUniqueValuesThroughATemporaryOne() throws {
        try roundTrip(
            """
            UPDATE slots SET code = 'tmp' WHERE id = 1;
            UPDATE slots SET code = 'x' WHERE id = 2;
            UPDATE slots SET code = 'y' WHERE id = 1;
            """)
    }

    @Test func aRotationOfThree() throws {
        try roundTrip(
            """
            UPDATE slots SET code = 'tmp' WHERE id = 1;
            UPDATE slots SET code = 'x' WHERE id = 3;
            UPDATE slots SET code = 'z' WHERE id = 2;
            UPDATE slots SET code = 'y' WHERE id = 1;
            """)
    }

    /// The row parked on the redo is the one that moves to the next free rowid: it must not be
    /// parked at its own target (it would seem stuck there).
    @Test func aRotationOfThreeWhileOneMovesToTheNextRowid() throws {
        try roundTrip(
            """
            UPDATE slots SET code = 'tmp' WHERE id = 1;
            UPDATE slots SET code = 'x' WHERE id = 3;
            UPDATE slots SET code = 'z' WHERE id = 2;
            UPDATE slots SET code = 'y', id = 4 WHERE id = 1;
            """)
    }

    @Test func aSwapOfIntegerPrimaryKeys() throws {
        try roundTrip(
            """
            UPDATE slots SET id = 10 WHERE id = 1;
            UPDATE slots SET id = 1 WHERE id = 2;
            UPDATE slots SET id = 2 WHERE id = 10;
            """)
    }

    @Test func aRotationOfIntegerPrimaryKeysWithOtherEdits() throws {
        try roundTrip(
            """
            UPDATE slots SET id = 10, label = 'moved' WHERE id = 1;
            UPDATE slots SET id = 1 WHERE id = 2;
            UPDATE slots SET id = 2 WHERE id = 3;
            UPDATE slots SET id = 3, code = 'w' WHERE id = 10;
            """)
    }

    @Test func aKeySwapThenADeleteOfTheSwappedRow() throws {
        try roundTrip(
            """
            UPDATE slots SET id = 10 WHERE id = 1;
            UPDATE slots SET id = 1 WHERE id = 2;
            UPDATE slots SET id = 2 WHERE id = 10;
            DELETE FROM slots WHERE id = 1;
            """)
    }

    @Test func aNewRowSwappedWithAnOldOne() throws {
        try roundTrip(
            """
            INSERT INTO slots VALUES (4, 'w', 'four');
            UPDATE slots SET id = 10 WHERE id = 3;
            UPDATE slots SET id = 3 WHERE id = 4;
            UPDATE slots SET id = 4 WHERE id = 10;
            """)
    }

    /// A row whose key change cannot be undone (another stack swapped keys with it since) does
    /// not stop the rest of the action: the rows swapping unique values beside it are still
    /// parked and restored, and the key change is kept as a conflict.
    @Test func aSwapOfUniqueValuesUndoesBesideAKeyChangeThatCannot() throws {
        try change(
            """
            INSERT INTO slots VALUES (4, 'w', 'four');
            UPDATE slots SET id = 10 WHERE id = 3;
            UPDATE slots SET id = 3 WHERE id = 4;
            UPDATE slots SET id = 4 WHERE id = 10;
            UPDATE slots SET code = 'tmp' WHERE id = 1;
            UPDATE slots SET code = 'x' WHERE id = 2;
            UPDATE slots SET code = 'y' WHERE id = 1;
            """)
        let other = try fixture.engine.stack(id: "other")
        try withUndoStack(other) {
            try undoable("Swap") {
                try fixture.execute(
                    """
                    INSERT INTO slots VALUES (5, 'v', 'five');
                    UPDATE slots SET id = 10 WHERE id = 3;
                    UPDATE slots SET id = 3 WHERE id = 5;
                    UPDATE slots SET id = 5 WHERE id = 10;
                    """)
            }
        }
        let event = try fixture.engine.defaultStack.undo()
        // The new row stays where the other stack moved it (named there), and the row it
        // swapped with stays out of its old key, which the other stack's row holds; the codes
        // are swapped back.
        #expect(
            event?.conflicts == [
                UndoConflict(
                    table: "slots", rowid: 4, column: "id", kept: 4, keptFrom: "other",
                    reason: .constraint, restoring: 3, heldBy: 3),
                UndoConflict(table: "slots", rowid: 5, column: nil, kept: nil, keptFrom: "other"),
            ])
        #expect(
            try fixture.rows("slots") == [
                [1, "x", "one"], [2, "y", "two"], [3, "v", "five"], [4, "z", "three"],
                [5, "w", "four"],
            ])
    }

    @Test func aKeySwapUndoesWhenSomeoneElseChangedTheUniqueValueSince() throws {
        try change(
            """
            UPDATE slots SET code = 'q' WHERE id = 1;
            UPDATE slots SET id = 10 WHERE id = 1;
            UPDATE slots SET id = 1 WHERE id = 2;
            UPDATE slots SET id = 2 WHERE id = 10;
            """)
        #expect(
            try fixture.rows("slots") == [[1, "y", "two"], [2, "q", "one"], [3, "z", "three"]])
        // Someone else changes the moved row's unique value: it is kept, the keys swap back.
        try fixture.execute("UPDATE slots SET code = 'r' WHERE id = 2")
        let event = try fixture.engine.defaultStack.undo()
        #expect(
            event?.conflicts == [
                UndoConflict(table: "slots", rowid: 2, column: "code", kept: "r")
            ])
        #expect(
            try fixture.rows("slots") == [[1, "r", "one"], [2, "y", "two"], [3, "z", "three"]])
    }

    /// Another stack took the unique value the undo would put back: the undo keeps it with the
    /// row that holds it and the stack that gave it that value, restores the rest of the step,
    /// and the steps beneath it undo.
    @Test func aUniqueValueAnotherRowTookIsKeptAndTheRestUndone() throws {
        let stack = fixture.engine.defaultStack
        try undoable("Relabel") { try fixture.execute("UPDATE slots SET label = 'first'") }
        try change("UPDATE slots SET code = 'q', label = 'moved' WHERE id = 1")
        let theirs = try fixture.engine.stack(id: "theirs")
        try withUndoStack(theirs) {
            try undoable("Take x") {
                try fixture.execute("UPDATE slots SET code = 'x' WHERE id = 2")
            }
        }
        let undo = try #require(try stack.undo())
        let kept = UndoConflict(
            table: "slots", rowid: 1, column: "code", kept: "q", keptFrom: "theirs",
            reason: .constraint, restoring: "x", heldBy: 2)
        #expect(undo.conflicts == [kept])
        #expect(kept.description == "kept slots.code of row 1: row 2 holds 'x' now")
        #expect(
            try fixture.rows("slots")
                == [[1, "q", "first"], [2, "x", "first"], [3, "z", "first"]])
        #expect(stack.state.undo == ["Relabel"])
        #expect(try stack.undo()?.conflicts == [])
        #expect(
            try fixture.rows("slots") == [[1, "q", "one"], [2, "x", "two"], [3, "z", "three"]])
        // Redo gives back what the undos took: the labels (the code never left q).
        try withUndoStack(theirs) { _ = try theirs.undo() }
        _ = try stack.redo()
        _ = try stack.redo()
        #expect(
            try fixture.rows("slots")
                == [[1, "q", "moved"], [2, "y", "first"], [3, "z", "first"]])
    }

    /// A value another stack took in another case, under a UNIQUE column that compares without
    /// case: the conflict names the value as the holder holds it, and the stack that wrote it.
    @Test func aValueTakenInAnotherCaseIsNamedAsItIsHeld() throws {
        let (people, kept) = try undoAfterTheirsTook(
            schema: """
                CREATE TABLE people(
                    id TEXT PRIMARY KEY, email TEXT UNIQUE COLLATE NOCASE, name TEXT);
                INSERT INTO people VALUES ('1', 'ann@x', 'Ann'), ('2', 'bob@x', 'Bob');
                """,
            mine: "UPDATE people SET email = 'ann@y', name = 'Annie' WHERE id = '1'",
            theirs: "UPDATE people SET email = 'ANN@X' WHERE id = '2'",
            expecting: ("people", "email", kept: "ann@y", restoring: "ann@x", held: "'ANN@X'"))
        #expect(try people.engine.key(ofTable: "people", id: kept.rowid) == ["1"])
        #expect(try people.engine.key(ofTable: "people", id: #require(kept.heldBy)) == ["2"])
        #expect(
            try people.rows("people") == [["1", "ann@y", "Ann"], ["2", "ANN@X", "Bob"]])
    }

    /// A key another stack took in another case, under a text key that compares without case:
    /// the conflict names the key as the holder holds it, and the stack that wrote it.
    @Test func aKeyTakenInAnotherCaseIsNamedAsItIsHeld() throws {
        let (tags, kept) = try undoAfterTheirsTook(
            schema: """
                CREATE TABLE tags(name TEXT PRIMARY KEY COLLATE NOCASE, note TEXT);
                INSERT INTO tags VALUES ('ann', 'first');
                """,
            mine: "UPDATE tags SET name = 'anne', note = 'renamed' WHERE name = 'ann'",
            theirs: "INSERT INTO tags VALUES ('ANN', 'theirs')",
            expecting: ("tags", "name", kept: "anne", restoring: "ann", held: "'ANN'"))
        #expect(try tags.engine.key(ofTable: "tags", id: kept.rowid) == ["anne"])
        // The key map spells a key as it first numbered it: the row holds it as 'ANN'.
        #expect(try tags.engine.key(ofTable: "tags", id: #require(kept.heldBy)) == ["ann"])
        #expect(try tags.rows("tags") == [["anne", "first"], ["ANN", "theirs"]])
    }

    /// In a fixture of `schema` tracking the expected table, runs `mine` on the default stack,
    /// then `theirs` on the stack "theirs", and undoes `mine`: it has to keep one value, which
    /// `theirs` took in another case. Checks that conflict, its description naming the value as
    /// `held`, and returns the fixture and the conflict.
    private func undoAfterTheirsTook(
        schema: String, mine: String, theirs: String,
        expecting expected: (
            table: String, column: String, kept: SQLiteValue, restoring: SQLiteValue,
            held: String
        )
    ) throws -> (Fixture, UndoConflict) {
        let fixture = try Fixture(schema: schema, tables: [expected.table])
        try undoable("Mine") { try fixture.execute(mine) }
        let other = try fixture.engine.stack(id: "theirs")
        try withUndoStack(other) { try undoable("Theirs") { try fixture.execute(theirs) } }
        let undo = try #require(try fixture.engine.defaultStack.undo())
        let kept = try #require(undo.conflicts.first)
        #expect(
            undo.conflicts == [
                UndoConflict(
                    table: expected.table, rowid: kept.rowid, column: expected.column,
                    kept: expected.kept, keptFrom: "theirs", reason: .constraint,
                    restoring: expected.restoring, heldBy: kept.heldBy)
            ])
        #expect(
            kept.description
                == "kept \(expected.table).\(expected.column) of row \(kept.rowid): "
                + "row \(kept.heldBy ?? 0) holds \(expected.held) now")
        return (fixture, kept)
    }

    /// A unique value another row holds, on a row whose key the step swapped: the value is
    /// kept (named where the row was when the undo began), the keys swap back.
    @Test func aTakenValueIsKeptOnARowWhoseSwappedKeySwapsBack() throws {
        let stack = fixture.engine.defaultStack
        try change(
            """
            INSERT INTO slots VALUES (4, 'w', 'four');
            UPDATE slots SET code = 'tmp' WHERE id = 4;
            UPDATE slots SET code = 'w' WHERE id = 1;
            UPDATE slots SET code = 'x' WHERE id = 4;
            UPDATE slots SET id = 9 WHERE id = 1;
            UPDATE slots SET id = 1 WHERE id = 2;
            UPDATE slots SET id = 2 WHERE id = 9;
            """)
        #expect(
            try fixture.rows("slots")
                == [[1, "y", "two"], [2, "w", "one"], [3, "z", "three"], [4, "x", "four"]])
        let theirs = try fixture.engine.stack(id: "theirs")
        try withUndoStack(theirs) {
            try undoable("Label") {
                try fixture.execute("UPDATE slots SET label = 'theirs' WHERE id = 4")
            }
        }
        let undo = try #require(try stack.undo())
        #expect(
            undo.conflicts == [
                UndoConflict(table: "slots", rowid: 4, column: nil, kept: nil, keptFrom: "theirs"),
                UndoConflict(
                    table: "slots", rowid: 2, column: "code", kept: "w", keptFrom: "theirs",
                    reason: .constraint, restoring: "x", heldBy: 4),
            ])
        #expect(
            try fixture.rows("slots")
                == [[1, "w", "one"], [2, "y", "two"], [3, "z", "three"], [4, "x", "theirs"]])
    }

    /// Two rows that swapped keys in a rotation of codes come back to their keys even when no
    /// code can: the rotation's last value went with a row another program moved away since
    /// (outside any barrier: the undo cannot follow it). A row parked with its code set aside saw
    /// another row take the code it held, so the replay parks it again by its key alone
    /// (model-based test, seed 147, step 12872).
    @Test func keysSwappedBesideCodesThatCannotComeBackStillSwapBack() throws {
        try rotateCodesAndSwapKeys()
        try fixture.execute("UPDATE slots SET id = 50 WHERE id = 4")
        let event = try #require(try fixture.engine.defaultStack.undo())
        #expect(
            try fixture.rows("slots") == [
                [1, "z", "one"], [2, "x", "two"], [3, "w", "three"], [50, "y", "four"],
            ])
        // Rows named by their keys when the undo began, the rows holding a code by their keys
        // after it.
        #expect(
            event.conflicts == [
                UndoConflict(table: "slots", rowid: 4, column: nil, kept: nil),
                UndoConflict(
                    table: "slots", rowid: 2, column: "code", kept: "z", reason: .constraint,
                    restoring: "x", heldBy: 2),
                UndoConflict(
                    table: "slots", rowid: 1, column: "code", kept: "x", reason: .constraint,
                    restoring: "y", heldBy: 50),
                UndoConflict(
                    table: "slots", rowid: 3, column: "code", kept: "w", reason: .constraint,
                    restoring: "z", heldBy: 1),
            ])
    }

    /// The same rotation, the row moved away by another stack: the undo follows it to its new
    /// key, and every code and key comes back.
    @Test func codesRotatedWithARowAnotherStackMovedAllComeBack() throws {
        try rotateCodesAndSwapKeys()
        let theirs = try fixture.engine.stack(id: "theirs")
        try withUndoStack(theirs) {
            try undoable("Move") { try fixture.execute("UPDATE slots SET id = 50 WHERE id = 4") }
        }
        #expect(try fixture.engine.defaultStack.undo()?.conflicts == [])
        #expect(
            try fixture.rows("slots") == [
                [1, "x", "one"], [2, "y", "two"], [3, "z", "three"], [50, "w", "four"],
            ])
    }

    /// A step rotating the codes of four rows (through placeholders) and swapping the keys of
    /// the first two.
    private func rotateCodesAndSwapKeys() throws {
        try fixture.execute("INSERT INTO slots VALUES (4, 'w', 'four')")
        try change(
            """
            UPDATE slots SET code = 'hold' WHERE id = 2;
            UPDATE slots SET code = 'y' WHERE id = 4;
            UPDATE slots SET code = 'hold2' WHERE id = 1;
            UPDATE slots SET code = 'x' WHERE id = 2;
            UPDATE slots SET code = 'hold3' WHERE id = 3;
            UPDATE slots SET code = 'z' WHERE id = 1;
            UPDATE slots SET code = 'w' WHERE id = 3;
            UPDATE slots SET id = 100 WHERE id = 1;
            UPDATE slots SET id = 1 WHERE id = 2;
            UPDATE slots SET id = 2 WHERE id = 100;
            """)
    }

    @Test func aKeySomeoneElseTookIsKeptAsAConflict() throws {
        try change("UPDATE slots SET id = 10 WHERE id = 1")
        try fixture.execute("INSERT INTO slots VALUES (1, 'new', 'theirs')")
        let event = try fixture.engine.defaultStack.undo()
        #expect(
            event?.conflicts == [
                UndoConflict(
                    table: "slots", rowid: 10, column: "id", kept: 10, reason: .constraint,
                    restoring: 1, heldBy: 1)
            ])
        #expect(
            try fixture.rows("slots") == [
                [1, "new", "theirs"], [2, "y", "two"], [3, "z", "three"], [10, "x", "one"],
            ])
    }
}
