import SQLiteDatabase
import SQLiteUndo
import Testing

/// "Undo only takes back what is still yours."
@Suite struct ConflictTests {
    let fixture: Fixture
    let paneA: UndoStack
    let paneB: UndoStack

    init() throws {
        fixture = try Fixture(
            schema:
                "CREATE TABLE articles(id INTEGER PRIMARY KEY, title TEXT, body TEXT, rating INTEGER)",
            tables: ["articles"])
        try fixture.execute("INSERT INTO articles VALUES (1, 'Title', 'Body', 0)")
        paneA = try fixture.engine.stack(id: "A")
        paneB = try fixture.engine.stack(id: "B")
    }

    func edit(_ pane: UndoStack, _ name: String, _ sql: String) throws {
        try withUndoStack(pane) { try undoable(name) { try fixture.execute(sql) } }
    }

    func articles() throws -> [[SQLiteValue]] { try fixture.rows("articles") }

    @Test func undoKeepsAnotherPanesEditOfAnotherColumn() throws {
        try edit(paneA, "Edit Title", "UPDATE articles SET title = 'A title'")
        try edit(paneB, "Edit Body", "UPDATE articles SET body = 'B body'")
        let event = try paneA.undo()
        #expect(try articles() == [[1, "Title", "B body", 0]])
        #expect(event?.conflicts == [])
    }

    @Test func undoKeepsAnotherPanesLaterEditOfTheSameColumnAndReportsIt() throws {
        try edit(paneA, "Edit Title", "UPDATE articles SET title = 'A title', rating = 3")
        try edit(paneB, "Edit Title", "UPDATE articles SET title = 'B title'")
        let event = try paneA.undo()
        #expect(try articles() == [[1, "B title", "Body", 0]])
        #expect(
            event?.conflicts == [
                UndoConflict(
                    table: "articles", rowid: 1, column: "title", kept: "B title", keptFrom: "B")
            ])
        // Pane B's own undo still works and returns to A's value.
        try paneB.undo()
        #expect(try articles() == [[1, "A title", "Body", 0]])
    }

    /// An undo that keeps every change of its action writes nothing and takes the action off
    /// the stack's lists (nothing to redo): the next undo takes back the action beneath.
    @Test func anUndoThatKeepsEverythingLeavesTheActionAndReachesTheOneBeneath() throws {
        try edit(paneA, "Set Rating", "UPDATE articles SET rating = 5")
        try edit(paneA, "Edit Title", "UPDATE articles SET title = 'A title'")
        try edit(paneB, "Edit Title", "UPDATE articles SET title = 'B title'")
        let event = try #require(try paneA.undo())
        #expect(event.name == "Edit Title")
        #expect(event.conflicts.map(\.kept) == ["B title"])
        #expect(try articles() == [[1, "B title", "Body", 5]])
        #expect(paneA.history.undo.map(\.name) == ["Set Rating"])
        #expect(paneA.canRedo == false)
        #expect(try paneA.undo()?.conflicts == [])
        #expect(try articles() == [[1, "B title", "Body", 0]])
    }

    @Test func untrackedLaterWriteIsKeptToo() throws {
        try edit(paneA, "Rate", "UPDATE articles SET rating = 5")
        try fixture.execute("UPDATE articles SET rating = 4")
        let event = try paneA.undo()
        #expect(try articles() == [[1, "Title", "Body", 4]])
        #expect(
            event?.conflicts == [
                UndoConflict(table: "articles", rowid: 1, column: "rating", kept: 4)
            ])
    }

    @Test func insertedRowChangedBySomeoneElseIsNotDeleted() throws {
        try edit(paneA, "New", "INSERT INTO articles VALUES (2, 'new', '', 0)")
        try edit(paneB, "Rate", "UPDATE articles SET rating = 2 WHERE id = 2")
        let event = try paneA.undo()
        #expect(try articles() == [[1, "Title", "Body", 0], [2, "new", "", 2]])
        #expect(
            event?.conflicts == [
                UndoConflict(table: "articles", rowid: 2, column: nil, kept: nil, keptFrom: "B")
            ])
    }

    @Test func deletedRowRecreatedMeanwhileIsAConflictNotACrash() throws {
        try edit(paneA, "Delete", "DELETE FROM articles WHERE id = 1")
        try edit(paneB, "Recreate", "INSERT INTO articles VALUES (1, 'again', '', 1)")
        let event = try paneA.undo()
        #expect(try articles() == [[1, "again", "", 1]])
        #expect(
            event?.conflicts == [
                UndoConflict(table: "articles", rowid: 1, column: nil, kept: nil, keptFrom: "B")
            ])
    }

    @Test func updatedRowDeletedMeanwhileIsAConflict() throws {
        try edit(paneA, "Edit", "UPDATE articles SET title = 'x'")
        try edit(paneB, "Delete", "DELETE FROM articles")
        let event = try paneA.undo()
        #expect(try articles() == [])
        #expect(
            event?.conflicts == [
                UndoConflict(table: "articles", rowid: 1, column: nil, kept: nil, keptFrom: "B")
            ])
        try paneB.undo()
        #expect(try articles() == [[1, "x", "Body", 0]])
    }

    @Test func redoFollowsTheSameRule() throws {
        try edit(paneA, "Edit Title", "UPDATE articles SET title = 'A title'")
        try paneA.undo()
        try edit(paneB, "Edit Title", "UPDATE articles SET title = 'B title'")
        let event = try paneA.redo()
        #expect(try articles() == [[1, "B title", "Body", 0]])
        #expect(
            event?.conflicts == [
                UndoConflict(
                    table: "articles", rowid: 1, column: "title", kept: "B title", keptFrom: "B")
            ])
    }

    @Test func undosThenRedosWithNoOneElseWritingReturnExactly() throws {
        var snapshots = [try articles()]
        for n in 1...5 {
            try edit(paneA, "Step \(n)", "UPDATE articles SET rating = \(n), title = 'v\(n)'")
            try edit(
                paneA, "Add \(n)",
                "INSERT INTO articles(title, body, rating) VALUES ('n\(n)', 'b', 1)")
            snapshots.append(try articles())
        }
        for _ in 0..<10 { try paneA.undo() }
        #expect(try articles() == snapshots[0])
        for _ in 0..<10 { try paneA.redo() }
        #expect(try articles() == snapshots[5])
    }

    @Test func aValueWrittenOutsideAnyBarrierIsNobodysEvenAfterOwnEdits() throws {
        try edit(paneA, "Edit Title", "UPDATE articles SET title = 'first'")
        try edit(paneA, "Edit Title", "UPDATE articles SET title = 'second'")
        try fixture.execute("UPDATE articles SET title = 'outside'")
        let event = try paneA.undo()
        #expect(try articles() == [[1, "outside", "Body", 0]])
        #expect(
            event?.conflicts == [
                UndoConflict(table: "articles", rowid: 1, column: "title", kept: "outside")
            ])
    }

    @Test func aConflictNamesTheChangeThatMadeTheKeptValueNotAnEarlierOne() throws {
        try edit(paneB, "Edit Title", "UPDATE articles SET title = 'B title'")
        try edit(paneA, "Edit Title", "UPDATE articles SET title = 'A title'")
        try fixture.execute("UPDATE articles SET title = 'outside'")
        #expect(
            try paneA.undo()?.conflicts == [
                UndoConflict(table: "articles", rowid: 1, column: "title", kept: "outside")
            ])
        // B's value, made again by B's redo after its undo, is B's.
        try edit(paneA, "Edit Body", "UPDATE articles SET body = 'A body'")
        try edit(paneB, "Edit Body", "UPDATE articles SET body = 'B body'")
        try paneB.undo()
        try paneB.redo()
        #expect(
            try paneA.undo()?.conflicts == [
                UndoConflict(
                    table: "articles", rowid: 1, column: "body", kept: "B body", keptFrom: "B")
            ])
    }

    @Test func anActionWhoseWritesNetToNothingPassesTheValueBackToTheOneBeforeIt() throws {
        try edit(paneB, "Rate", "UPDATE articles SET rating = 1")
        // The outer action sets the rating back to B's value over its inner action's, so the
        // value is B's: neither of pane A's actions made it.
        try withUndoStack(paneA) {
            try undoable("Outer") {
                try fixture.execute("UPDATE articles SET rating = 0")
                try undoable("Inner") { try fixture.execute("UPDATE articles SET rating = 2") }
                try fixture.execute("UPDATE articles SET rating = 1")
            }
        }
        #expect(
            try paneA.undo()?.conflicts == [
                UndoConflict(table: "articles", rowid: 1, column: "rating", kept: 1, keptFrom: "B")
            ])
    }

    /// A row deleted and inserted again at its key by actions that have since left history is
    /// another row: the writes before are not its own, even with the same value (model-based
    /// test, seed 2, step 21297).
    @Test func aRowRecreatedByActionsThatLeftHistoryIsNobodysWrite() throws {
        let paneC = try fixture.engine.stack(id: "C")
        try edit(paneA, "Edit Title", "UPDATE articles SET title = 'A title'")
        try edit(paneC, "Edit Title", "UPDATE articles SET title = 'same'")
        paneB.levelsOfUndo = 1
        try edit(paneB, "Delete", "DELETE FROM articles WHERE id = 1")
        try edit(paneB, "Recreate", "INSERT INTO articles VALUES (1, 'same', 'Body', 0)")
        try edit(paneB, "Add Another", "INSERT INTO articles VALUES (2, 'Other', '', 0)")
        #expect(paneB.state == UndoStackState(undo: ["Add Another"], redo: []))
        #expect(
            try paneA.undo()?.conflicts == [
                UndoConflict(table: "articles", rowid: 1, column: "title", kept: "same")
            ])
    }

    /// A row another stack moved to another key since (a changed primary key) is followed
    /// there: the undo of an earlier edit restores the row's columns at its new key, keeps the
    /// key, and the redo writes the edit there again.
    @Test func anUndoFollowsARowAnotherStackMovedToAnotherKey() throws {
        try edit(paneB, "Edit Title", "UPDATE articles SET title = 'B title'")
        try edit(paneA, "Move", "UPDATE articles SET id = 9 WHERE id = 1")
        let undo = try #require(try paneB.undo())
        #expect(undo.conflicts == [])
        #expect(undo.affectedRows == ["articles": [9]])
        #expect(try articles() == [[9, "Title", "Body", 0]])
        #expect(try paneB.redo()?.conflicts == [])
        #expect(try articles() == [[9, "B title", "Body", 0]])
        try withUndoStack(paneA) { _ = try paneA.undo() }
        #expect(try articles() == [[1, "B title", "Body", 0]])
        try paneB.undo()
        #expect(try articles() == [[1, "Title", "Body", 0]])
    }

    /// A move another stack made and undid since leaves the row where it was; one it made,
    /// undid and redid (each an exact replay, which flips its entry) leaves it at the new key,
    /// and so does a second move: the undo follows them in the order they took effect.
    @Test func anUndoFollowsMovesUndoneAndRedoneSince() throws {
        try edit(paneB, "Edit Title", "UPDATE articles SET title = 'B title'")
        try edit(paneA, "Move", "UPDATE articles SET id = 9 WHERE id = 1")
        try withUndoStack(paneA) { _ = try paneA.undo() }
        try withUndoStack(paneA) { _ = try paneA.redo() }
        try edit(paneA, "Move Again", "UPDATE articles SET id = 4 WHERE id = 9")
        #expect(try paneB.undo()?.affectedRows == ["articles": [4]])
        #expect(try articles() == [[4, "Title", "Body", 0]])
    }

    /// The move of an action that left history (its stack keeps one step) is still followed:
    /// the log keeps the key changes of actions it drops.
    @Test func anUndoFollowsAMoveWhoseActionLeftHistory() throws {
        paneA.levelsOfUndo = 1
        try edit(paneB, "Edit Title", "UPDATE articles SET title = 'B title'")
        try edit(paneA, "Move", "UPDATE articles SET id = 9 WHERE id = 1")
        try edit(paneA, "Rate", "UPDATE articles SET rating = 2 WHERE id = 9")
        #expect(paneA.state.undo == ["Rate"])
        #expect(try paneB.undo()?.conflicts == [])
        #expect(try articles() == [[9, "Title", "Body", 2]])
    }

    /// A long text the step edited, whose log row keeps only the edit (packed), is rebuilt from
    /// the row where another stack moved it, and restored there.
    @Test func anUndoOfALongTextEditFollowsTheRow() throws {
        let long = String(repeating: "lorem ipsum ", count: 100)
        try fixture.execute("UPDATE articles SET body = '\(long)'")
        try edit(paneB, "Type", "UPDATE articles SET body = body || 'x'")
        try edit(paneA, "Move", "UPDATE articles SET id = 9 WHERE id = 1")
        #expect(try paneB.undo()?.conflicts == [])
        #expect(try articles() == [[9, "Title", .text(long), 0]])
    }

    /// A row moved outside any barrier is not in the log: the undo finds no row at the key it
    /// knows, keeps the whole row, and the step leaves history.
    @Test func aRowMovedOutsideAnyBarrierIsKeptWhole() throws {
        try edit(paneB, "Edit Title", "UPDATE articles SET title = 'B title'")
        try fixture.execute("UPDATE articles SET id = 9 WHERE id = 1")
        #expect(
            try paneB.undo()?.conflicts == [
                UndoConflict(table: "articles", rowid: 1, column: nil, kept: nil)
            ])
        #expect(try articles() == [[9, "B title", "Body", 0]])
        #expect(paneB.state == UndoStackState(undo: [], redo: []))
    }

    /// A row that moved away from its key takes its writes along: the undo follows it to its
    /// new key and names who wrote the value kept there, and a row inserted at the old key
    /// outside any barrier since, even with the value the moved row had, is left as it is
    /// (model-based test, seed 3, step 16999).
    @Test func aRowThatMovedAwayTakesItsWritesAlong() throws {
        let paneC = try fixture.engine.stack(id: "C")
        try edit(paneA, "Edit Title", "UPDATE articles SET title = 'A title'")
        try edit(paneC, "Edit Title", "UPDATE articles SET title = 'same'")
        try edit(paneC, "Move", "UPDATE articles SET id = 9 WHERE id = 1")
        try fixture.execute("INSERT INTO articles VALUES (1, 'same', 'Body', 0)")
        #expect(
            try paneA.undo()?.conflicts == [
                UndoConflict(
                    table: "articles", rowid: 9, column: "title", kept: "same", keptFrom: "C")
            ])
        #expect(try articles() == [[1, "same", "Body", 0], [9, "same", "Body", 0]])
    }

    /// A row deleted and another inserted at its key, both outside any barrier, reads to the log
    /// as the row taking new values: a value the new row has in common with what a recorded
    /// action left there is named after that action, as a write outside any barrier setting it
    /// back would be (model-based test, seed 22, step 14360).
    @Test func aRowDeletedAndInsertedAgainOutsideAnyBarrierReadsAsTheSameRow() throws {
        try edit(paneA, "Edit Title", "UPDATE articles SET title = 'A title'")
        try edit(paneB, "Edit Title", "UPDATE articles SET title = 'same'")
        try fixture.execute("DELETE FROM articles WHERE id = 1")
        try fixture.execute("INSERT INTO articles VALUES (1, 'same', 'New body', 3)")
        #expect(
            try paneA.undo()?.conflicts == [
                UndoConflict(
                    table: "articles", rowid: 1, column: "title", kept: "same", keptFrom: "B")
            ])
        #expect(try articles() == [[1, "same", "New body", 3]])
    }

    /// An undo that inserted a row again, which the next redo could not reach (another stack
    /// moved it away meanwhile), wrote the values the row has: its log stays when later replays
    /// supersede the redo's, and a conflict on one of them names its stack (model-based test,
    /// seed 39, step 7990). Application triggers write during every replay (a count, and what
    /// touched it), so that each replay is recorded anew instead of flipping its entry.
    @Test func aRowAnUndoInsertedAgainStaysItsWorkAfterARedoMissedIt() throws {
        let counted = try Fixture(
            schema: """
                CREATE TABLE articles(id INTEGER PRIMARY KEY, title TEXT);
                CREATE TABLE counts(id INTEGER PRIMARY KEY, n INTEGER);
                INSERT INTO counts VALUES (1, 0);
                CREATE TABLE meta(id INTEGER PRIMARY KEY, touched INTEGER);
                INSERT INTO meta VALUES (1, 0);
                CREATE TRIGGER touch AFTER UPDATE ON counts BEGIN
                    UPDATE meta SET touched = touched + 1;
                END;
                CREATE TRIGGER counted AFTER INSERT ON articles BEGIN
                    UPDATE counts SET n = n + 1;
                END;
                CREATE TRIGGER uncounted AFTER DELETE ON articles BEGIN
                    UPDATE counts SET n = n - 1;
                END;
                INSERT INTO articles VALUES (1, 'Title');
                """, tables: ["articles", "counts", "meta"])
        let (paneA, paneB, paneC, paneD) = (
            try counted.engine.stack(id: "A"), try counted.engine.stack(id: "B"),
            try counted.engine.stack(id: "C"), try counted.engine.stack(id: "D")
        )
        func edit(_ pane: UndoStack, _ name: String, _ sql: String) throws {
            try withUndoStack(pane) { try undoable(name) { try counted.execute(sql) } }
        }
        try edit(paneA, "Retitle", "UPDATE articles SET title = 'A title'")
        try edit(paneB, "Retitle", "UPDATE articles SET title = 'B title'")
        try edit(paneC, "Delete", "DELETE FROM articles WHERE id = 1")
        try paneC.undo()
        try edit(paneD, "Move", "UPDATE articles SET id = 9 WHERE id = 1")
        try paneC.redo()
        try paneC.undo()
        try paneD.undo()
        #expect(try counted.rows("articles") == [[1, "B title"]])
        #expect(
            try paneA.undo()?.conflicts == [
                UndoConflict(
                    table: "articles", rowid: 1, column: "title", kept: "B title", keptFrom: "C")
            ])
    }

    /// An action moves a row away from a key, another stack brings a row to that key meanwhile,
    /// and the action moves that one away too: its undo reverts the rows it changed last first,
    /// so the second row goes back to the key, and the first finds the key taken and stays, a
    /// conflict on its key naming the row holding it (model-based test, seed 48, step 18832).
    @Test func twoRowsAnActionMovedFromOneKeyLeaveTheKeyToTheLastOne() throws {
        try withUndoStack(paneA) {
            try undoable("Move Twice") {
                try fixture.execute("UPDATE articles SET id = 10 WHERE id = 1")
                try edit(paneB, "New", "INSERT INTO articles VALUES (1, 'B new', '', 2)")
                try fixture.execute("UPDATE articles SET id = 11 WHERE id = 1")
            }
        }
        let event = try paneA.undo()
        #expect(try articles() == [[1, "B new", "", 2], [10, "Title", "Body", 0]])
        #expect(
            event?.conflicts == [
                // The row holding the key is one this undo moved back there: nobody else's.
                UndoConflict(
                    table: "articles", rowid: 10, column: "id", kept: 10, reason: .constraint,
                    restoring: 1, heldBy: 1)
            ])
        try paneB.undo()
        #expect(try articles() == [[10, "Title", "Body", 0]])
    }

    /// An action that moves a row away, writes it there and brings it back with the value it
    /// found (as a replay that parks a row does, setting back what a trigger wrote) did not
    /// write that value: a conflict on it names the stack that wrote it before (model-based
    /// test, seed 3, step 28755).
    @Test func aRowMovedAwayAndBackWithItsValueIsNotItsWriter() throws {
        let paneC = try fixture.engine.stack(id: "C")
        try edit(paneA, "Edit Title", "UPDATE articles SET title = 'A title'")
        try edit(paneB, "Edit Title", "UPDATE articles SET title = 'B title'")
        try edit(
            paneC, "Park",
            """
            UPDATE articles SET id = 9 WHERE id = 1;
            UPDATE articles SET title = 'passing', rating = 1 WHERE id = 9;
            UPDATE articles SET id = 1 WHERE id = 9;
            UPDATE articles SET title = 'B title' WHERE id = 1;
            """)
        #expect(
            try paneA.undo()?.conflicts == [
                UndoConflict(
                    table: "articles", rowid: 1, column: "title", kept: "B title", keptFrom: "B")
            ])
        #expect(try articles() == [[1, "B title", "Body", 1]])
    }

    /// An action undone and redone twice, each replay recorded anew (an application trigger
    /// writes during it), still made the values it wrote before its first replay: another
    /// stack's writes that net to nothing around those replays leave them its own (model-based
    /// test, seed 3, step 43326). The log keeps three of its five records: its first, and its
    /// last two replays'.
    @Test func aValueAnActionWroteBeforeItsReplaysStaysItsOwn() throws {
        let stamped = try Fixture(
            schema: """
                CREATE TABLE articles(id INTEGER PRIMARY KEY, title TEXT, stamp INTEGER);
                CREATE TRIGGER bump AFTER UPDATE OF title ON articles BEGIN
                    UPDATE articles SET stamp = stamp + 1 WHERE id = NEW.id;
                END;
                INSERT INTO articles VALUES (1, 'Title', 9);
                """, tables: ["articles"])
        let (paneA, paneB, paneC) = (
            try stamped.engine.stack(id: "A"), try stamped.engine.stack(id: "B"),
            try stamped.engine.stack(id: "C")
        )
        func edit(_ pane: UndoStack, _ name: String, _ sql: String) throws {
            try withUndoStack(pane) { try undoable(name) { try stamped.execute(sql) } }
        }
        try edit(paneC, "Reset", "UPDATE articles SET stamp = 0")
        try edit(paneA, "Retitle", "UPDATE articles SET title = 'A title'")
        // B sets the stamp back to what it was before A's action while A's action is undone and
        // redone, then puts A's value back: its writes net to nothing.
        try withUndoStack(paneB) {
            try undoable("Around") {
                try stamped.execute("UPDATE articles SET stamp = 0")
                for _ in 0..<2 {
                    try paneA.undo()
                    try paneA.redo()
                }
                try stamped.execute("UPDATE articles SET stamp = 1")
            }
        }
        #expect(try stamped.rows("articles") == [[1, "A title", 1]])
        let recordsOfA = try stamped.db.read {
            try $0.fetchOne(
                Int.self, "SELECT count(*) FROM sqliteundo_barriers WHERE stackId = 'A'")
        }
        #expect(recordsOfA == 3)
        #expect(
            try paneC.undo()?.conflicts == [
                UndoConflict(table: "articles", rowid: 1, column: "stamp", kept: 1, keptFrom: "A")
            ])
    }
}
