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
        let preparedAgain = try statementsPreparedAgain(repeating: cycle, on: fixture)
        #expect(preparedAgain.isEmpty, "prepared again: \(preparedAgain)")
    }

    /// An undo or redo that adds or removes a row other rows reference runs with foreign key
    /// checks immediate when it is small and breaks no reference: `defer_foreign_keys` would
    /// make SQLite prepare every statement of the connection again (it did at every such undo).
    @Test func undoingAnAddedReferencedRowDoesNotPrepareStatementsAgain() throws {
        let fixture = try Fixture()
        try fixture.execute("INSERT INTO items(id, name) VALUES (1, 'a')")
        let stack = fixture.engine.defaultStack
        try undoable("Add Item") {
            try fixture.execute("INSERT INTO items(id, name) VALUES (2, 'b')")
        }
        try undoable("Add Part") {
            try fixture.execute("INSERT INTO parts(id, itemId, label) VALUES (1, 2, 'bolt')")
        }
        try undoable("Remove Item") { try fixture.execute("DELETE FROM items WHERE id = 1") }
        let cycle = {
            for _ in 0..<3 { try stack.undo() }
            #expect(try fixture.rows() == [[1, "a", .null, 0]])
            #expect(try fixture.rows("parts") == [])
            for _ in 0..<3 { try stack.redo() }
            #expect(try fixture.rows() == [[2, "b", .null, 0]])
            #expect(try fixture.rows("parts") == [[1, 2, "bolt"]])
        }
        let preparedAgain = try statementsPreparedAgain(repeating: cycle, on: fixture)
        #expect(preparedAgain.isEmpty, "prepared again: \(preparedAgain)")
    }

    /// The cached statements SQLite prepared again while `cycle` ran three times, with how
    /// many times each was before. The first run of `cycle` prepares its statements, some of
    /// them before the engine's last schema changes of its setup: it runs once before the
    /// count. The check the `UndoDiagnostics` checks run after every replay (with
    /// `SQLITEUNDO_DIAGNOSTICS` set) is a pragma SQLite prepares again each time: not counted.
    private func statementsPreparedAgain(
        repeating cycle: () throws -> Void, on fixture: Fixture
    ) throws -> [String: Int] {
        try cycle()
        let before = try fixture.db.read { $0.timesCachedStatementsWerePreparedAgain() }
        for _ in 0..<3 { try cycle() }
        return try fixture.db.read { $0.timesCachedStatementsWerePreparedAgain() }
            .filter {
                $0.key != UndoDiagnostics.referenceCheck && $0.value > before[$0.key, default: 0]
            }
    }
}
