import Testing

@testable import SQLiteDatabase
@testable import SQLiteUndo

/// Undos and redos run the same statements again and again: SQLite parses each once. A
/// statement SQLite prepares again at every run costs an undo of a few rows more than its work
/// (the log's partial index of key changes once made every read of the log by a bound kind,
/// `kind = ?`, one of those, and the read of the log's slots was another: together a quarter of
/// the model-based test's time).
@Suite struct StatementReuseTests {
    @Test func undoAndRedoDoNotPrepareTheirStatementsAgain() throws {
        let fixture = try Fixture(
            schema: "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, value, flag INTEGER)",
            tables: ["items"])
        try fixture.execute(
            "INSERT INTO items(id, name, value) VALUES (1, 'a', 1), (2, 'b', 2.5), (3, 'c', NULL)")
        let stack = fixture.engine.defaultStack
        try undoable("Rename") { try fixture.execute("UPDATE items SET name = name || '!'") }
        try undoable("Add") {
            try fixture.execute("INSERT INTO items(id, name, value) VALUES (4, 'd', x'00')")
        }
        try undoable("Remove") { try fixture.execute("DELETE FROM items WHERE id = 2") }
        try undoable("Move") { try fixture.execute("UPDATE items SET id = 5 WHERE id = 3") }
        let done = try fixture.rows()
        let cycle = {
            for _ in 0..<4 { try stack.undo() }
            #expect(
                try fixture.rows() == [
                    [1, "a", 1, .null], [2, "b", 2.5, .null], [3, "c", .null, .null],
                ])
            for _ in 0..<4 { try stack.redo() }
            #expect(try fixture.rows() == done)
        }
        // The first undos and redos prepare their statements, some of them before the engine's
        // last schema changes of its setup; what counts is what the next ones add.
        try cycle()
        let preparedBefore = try fixture.db.read { $0.timesCachedStatementsWerePreparedAgain() }
        for _ in 0..<3 { try cycle() }
        let preparedAgain = try fixture.db.read { $0.timesCachedStatementsWerePreparedAgain() }
            .filter { $0.value > preparedBefore[$0.key, default: 0] }
        #expect(preparedAgain.isEmpty, "prepared again: \(preparedAgain)")
    }
}
