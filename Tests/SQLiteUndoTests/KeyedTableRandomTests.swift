import SQLiteDatabase
import SQLiteUndo
import TestSupport
import Testing

/// Random actions of two stacks on a table keyed by text compared without case ("Todo" and
/// "todo" are one key) and a `WITHOUT ROWID` join table keyed by two columns (deletes cascading
/// into it, renames, key moves, swaps, `OR REPLACE`, `OR IGNORE`), with undos and redos in
/// between; each undo must give back the tables exactly as they were before the action, each
/// redo exactly as they were after it. The reference is the list of actions with the tables
/// before and after each.
@Suite struct KeyedTableRandomTests {
    private struct Action {
        let stack: UndoStack
        let statements: [(String, [SQLiteValue])]
        let before: [[SQLiteValue]]
        let after: [[SQLiteValue]]
    }

    private static let names = ["home", "work", "Todo", "todo", "x", "ideas", "later"]

    @Test(arguments: 1...8)
    func randomActionsUndoAndRedoExactly(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let db = try DatabaseQueue()
        try db.write {
            try $0.execute(
                """
                CREATE TABLE tags(name TEXT PRIMARY KEY NOT NULL COLLATE NOCASE, color TEXT);
                CREATE TABLE note_tags(
                    noteId INTEGER NOT NULL,
                    tag TEXT NOT NULL REFERENCES tags(name) ON DELETE CASCADE,
                    weight REAL, PRIMARY KEY(noteId, tag)) WITHOUT ROWID;
                INSERT INTO tags VALUES ('home', 'red'), ('work', 'blue');
                INSERT INTO note_tags VALUES (1, 'home', 1.5), (1, 'work', NULL), (2, 'work', 2);
                """)
        }
        let engine = try UndoEngine(for: db, tableNames: ["tags", "note_tags"])
        let stacks = [try engine.stack(id: "a"), try engine.stack(id: "b")]
        var done: [Action] = []
        var undone: [Action] = []
        for step in 0..<300 {
            let roll = random.next() % 100
            if roll < 15, let last = done.popLast() {
                let redoable = last.stack.state.redo.count
                try last.stack.undo()
                let now = try state(db)
                #expect(now == last.before, "undo at step \(step), seed \(seed): \(last)")
                if now != last.before { return }
                // An action whose changes cancel out (a key moved away and back) undoes to
                // nothing, and leaves no redo.
                if last.stack.state.redo.count > redoable { undone.append(last) }
            } else if roll < 25, let last = undone.popLast() {
                try last.stack.redo()
                let now = try state(db)
                #expect(now == last.after, "redo at step \(step), seed \(seed): \(last)")
                if now != last.after { return }
                done.append(last)
            } else {
                let stack = stacks[Int(random.next() % 2)]
                let before = try state(db)
                let filed = stack.state.undo.count
                let statements = randomAction(&random)
                try withUndoStack(stack) {
                    try undoable("Step \(step)") {
                        try db.write { db in
                            for sql in statements { try db.execute(sql.0, sql.1) }
                        }
                    }
                }
                guard stack.state.undo.count > filed else { continue }
                done.append(
                    Action(
                        stack: stack, statements: statements, before: before,
                        after: try state(db)))
                undone = []  // a new action ends the redo lists the run could follow
            }
        }
        var redoable: [Action] = []
        for action in done.reversed() {
            let before = action.stack.state.redo.count
            try action.stack.undo()
            if action.stack.state.redo.count > before { redoable.insert(action, at: 0) }
            let now = try state(db)
            #expect(now == action.before, "final undo, seed \(seed): \(action)")
            if now != action.before { return }
        }
        for action in redoable {
            try action.stack.redo()
            let now = try state(db)
            #expect(now == action.after, "final redo, seed \(seed): \(action)")
            if now != action.after { return }
        }
    }

    /// Both tables, each row tagged with its table, in key order.
    private func state(_ db: DatabaseQueue) throws -> [[SQLiteValue]] {
        try db.read { db in
            let tags = try db.fetchAll(Row.self, "SELECT 'tag', * FROM tags ORDER BY name")
            let links = try db.fetchAll(
                Row.self, "SELECT 'link', * FROM note_tags ORDER BY noteId, tag")
            return (tags + links).map(\.values)
        }
    }

    private func randomAction(_ random: inout SeededRandom) -> [(String, [SQLiteValue])] {
        let names = Self.names
        func name() -> SQLiteValue { .text(names[Int(random.next() % UInt64(names.count))]) }
        func note() -> SQLiteValue { .integer(Int64(random.next() % 3) + 1) }
        let colors: [SQLiteValue] = ["red", "blue", nil, "green\twith a tab"]
        let color = colors[Int(random.next() % UInt64(colors.count))]
        // A tag's name is renamed only where no link names it (the key has no ON UPDATE action).
        let unused = " AND NOT EXISTS (SELECT 1 FROM note_tags WHERE tag = tags.name)"
        switch random.next() % 10 {
        case 0: return [("INSERT OR IGNORE INTO tags VALUES (?, ?)", [name(), color])]
        case 1:
            return [
                ("UPDATE OR IGNORE tags SET name = ? WHERE name = ?\(unused)", [name(), name()])
            ]
        case 2: return [("UPDATE tags SET color = ? WHERE name = ?", [color, name()])]
        case 3: return [("DELETE FROM tags WHERE name = ?", [name()])]
        case 4:
            return [
                (
                    "INSERT OR IGNORE INTO note_tags SELECT ?, name, ? FROM tags WHERE name = ?",
                    [note(), .real(Double(random.next() % 10) / 4), name()]
                )
            ]
        case 5:
            return [
                (
                    "INSERT OR REPLACE INTO note_tags SELECT ?, name, ? FROM tags WHERE name = ?",
                    [note(), .real(Double(random.next() % 10) / 4), name()]
                )
            ]
        case 6:
            return [
                ("UPDATE OR IGNORE note_tags SET noteId = ? WHERE noteId = ?", [note(), note()])
            ]
        case 7:
            return [("UPDATE note_tags SET weight = weight + 1 WHERE tag = ?", [name()])]
        case 8:
            // Two tags swap names, through a third.
            let (first, second) = (name(), name())
            return [
                ("UPDATE OR IGNORE tags SET name = 'swap' WHERE name = ?\(unused)", [first]),
                ("UPDATE OR IGNORE tags SET name = ? WHERE name = ?\(unused)", [first, second]),
                ("UPDATE OR IGNORE tags SET name = ? WHERE name = 'swap'", [second]),
            ]
        default:
            // Two notes swap their links to a tag, through note 0.
            let (tag, first, second) = (name(), note(), note())
            let move = "UPDATE OR IGNORE note_tags SET noteId = ? WHERE noteId = ? AND tag = ?"
            return [
                (move, [0, first, tag]), (move, [first, second, tag]), (move, [second, 0, tag]),
            ]
        }
    }
}
