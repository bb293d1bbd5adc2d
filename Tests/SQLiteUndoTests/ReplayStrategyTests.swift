import SQLiteDatabase
import Testing

@testable import SQLiteUndo

/// The replay strategies give the same result: each history below is replayed with every
/// strategy allowed (the engine's way), without the exact one, and row by row only, and the
/// tables and events after every undo and redo are compared.
@Suite struct ReplayStrategyTests {
    /// A history: writes on stacks "A" and "B" (and outside any barrier), then the undos and
    /// redos to compare.
    struct History: CustomTestStringConvertible, Sendable {
        let name: String
        let steps: [Step]
        var testDescription: String { name }
    }

    enum Step: Sendable {
        case write(stack: String?, sql: String)
        case undo(String)
        case redo(String)
    }

    static let schema = """
        CREATE TABLE clock(now INTEGER);
        INSERT INTO clock VALUES (100);
        CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, value, stamp INTEGER DEFAULT 0);
        CREATE TABLE parts(id INTEGER PRIMARY KEY,
            itemId INTEGER REFERENCES items(id) ON DELETE CASCADE, label TEXT UNIQUE);
        WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 40)
        INSERT INTO items(id, name, value) SELECT x, 'item ' || x, x * 1.5 FROM n;
        INSERT INTO parts(id, itemId, label) SELECT id, id, 'part ' || id FROM items WHERE id <= 10;
        """

    /// The same tables keyed otherwise than by an `INTEGER PRIMARY KEY`, whose rows the engine
    /// names through its key map: `items` by an `INTEGER PRIMARY KEY DESC` (no rowid alias: a
    /// row inserted without an id has a NULL key, and is not recorded), `parts` by text in a
    /// `WITHOUT ROWID` table.
    static let keyedSchema = schema.replacingOccurrences(
        of: "items(id INTEGER PRIMARY KEY,", with: "items(id INTEGER PRIMARY KEY DESC,"
    ).replacingOccurrences(
        of: "parts(id INTEGER PRIMARY KEY,", with: "parts(id TEXT NOT NULL PRIMARY KEY,"
    ).replacingOccurrences(of: "label TEXT UNIQUE);", with: "label TEXT UNIQUE) WITHOUT ROWID;")

    static let stamp = """
        CREATE TRIGGER stamp AFTER UPDATE OF name ON items WHEN NEW.stamp IS OLD.stamp BEGIN
            UPDATE items SET stamp = (SELECT now FROM clock) WHERE id = NEW.id;
        END;
        """

    static let undoAll: [Step] = [.undo("A"), .undo("A"), .undo("A"), .redo("A"), .redo("A")]

    static let histories: [History] = [
        History(
            name: "bulk update",
            steps: [
                .write(stack: "A", sql: "UPDATE items SET value = value * 2, name = upper(name)")
            ]
                + undoAll),
        History(
            name: "inserts",
            steps: [
                .write(
                    stack: "A",
                    sql: "INSERT INTO items(name, value) SELECT 'new\t' || id, x'00ff' FROM items")
            ] + undoAll),
        History(
            name: "deletes with a cascade",
            steps: [.write(stack: "A", sql: "DELETE FROM items WHERE id % 3 = 0")] + undoAll),
        History(
            name: "mixed kinds and orders",
            steps: [
                .write(
                    stack: "A",
                    sql: """
                        UPDATE items SET name = 'x' WHERE id < 5;
                        DELETE FROM items WHERE id < 3;
                        INSERT INTO items(id, name) VALUES (2, 'again');
                        INSERT INTO items(id, name, value) VALUES (100, 'line\nbreak', NULL);
                        UPDATE items SET id = 101 WHERE id = 100;
                        """),
                .write(stack: "A", sql: "UPDATE items SET value = -0.25 WHERE id = 101"),
            ] + undoAll),
        History(
            name: "another stack's later edits",
            steps: [
                .write(stack: "A", sql: "UPDATE items SET name = 'A', value = 1"),
                .write(stack: "B", sql: "UPDATE items SET name = 'B' WHERE id % 2 = 0"),
                .write(stack: nil, sql: "UPDATE items SET value = 7 WHERE id % 5 = 0"),
                .undo("A"), .undo("B"), .redo("A"), .redo("B"), .undo("A"),
            ]),
        History(
            name: "a unique swap",
            steps: [
                .write(
                    stack: "A",
                    sql: """
                        UPDATE parts SET label = 'tmp' WHERE id = 1;
                        UPDATE parts SET label = 'part 1' WHERE id = 2;
                        UPDATE parts SET label = 'part 2' WHERE id = 1;
                        """)
            ] + undoAll),
        History(
            name: "an application trigger",
            steps: [
                .write(stack: nil, sql: stamp),
                .write(stack: "A", sql: "UPDATE items SET name = 'renamed' WHERE id < 20"),
                .write(stack: nil, sql: "UPDATE clock SET now = 200"),
                .write(stack: "A", sql: "UPDATE items SET value = 0 WHERE id < 30"),
                .write(stack: nil, sql: "UPDATE clock SET now = 300"),
            ] + undoAll),
    ]

    /// The tables and the event after each undo or redo.
    struct Observation: Equatable {
        let items: [[SQLiteValue]]
        let parts: [[SQLiteValue]]
        let event: String
    }

    static func observe(
        _ history: History, schema: String = schema, strategies: [ReplayStrategy]
    ) throws -> [Observation] {
        let fixture = try Fixture(schema: schema)
        let rows = { (table: String) in
            try fixture.db.read { try $0.fetchAll(Row.self, "SELECT * FROM \(table) ORDER BY 1") }
                .map(\.values)
        }
        fixture.engine.replayStrategies.withLock { $0 = strategies }
        var observations: [Observation] = []
        for step in history.steps {
            switch step {
            case .write(let stack, let sql):
                guard let stack else {
                    try fixture.execute(sql)
                    try fixture.engine.refresh()
                    continue
                }
                try withUndoStack(try fixture.engine.stack(id: stack)) {
                    try undoable("Edit") { try fixture.execute(sql) }
                }
            case .undo(let stack), .redo(let stack):
                let pane = try fixture.engine.stack(id: stack)
                let isUndo = if case .undo = step { true } else { false }
                let event = isUndo ? try pane.undo() : try pane.redo()
                let conflicts = (event?.conflicts ?? []).map {
                    "\($0.table).\($0.column ?? "*")@\($0.rowid)=\($0.kept.map { "\($0)" } ?? "-")"
                        + " from \($0.keptFrom ?? "nobody")"
                }
                observations.append(
                    Observation(
                        items: try rows("items"), parts: try rows("parts"),
                        event: "\(event?.kind == .undo ? "undo" : "redo") \(event?.name ?? "-") "
                            + (event?.affectedRows ?? [:]).sorted { $0.key < $1.key }
                            .map { "\($0.key): \($0.value.sorted())" }.joined(separator: "; ")
                            + " "
                            + conflicts.sorted().joined(separator: ", ")))
            }
        }
        return observations
    }

    @Test(arguments: histories)
    func everyStrategyGivesTheSameResult(history: History) throws {
        try expectEveryStrategyGivesTheSameResult(history, schema: Self.schema)
    }

    @Test(arguments: histories)
    func everyStrategyGivesTheSameResultOnKeyedTables(history: History) throws {
        #expect(Self.keyedSchema.contains("WITHOUT ROWID"))
        #expect(Self.keyedSchema.contains("PRIMARY KEY DESC"))
        try expectEveryStrategyGivesTheSameResult(history, schema: Self.keyedSchema)
    }

    private func expectEveryStrategyGivesTheSameResult(_ history: History, schema: String)
        throws
    {
        let engines = try Self.observe(
            history, schema: schema, strategies: ReplayStrategy.allCases)
        let setBased = try Self.observe(
            history, schema: schema, strategies: [.setBased, .rowByRow])
        let rowByRow = try Self.observe(history, schema: schema, strategies: [.rowByRow])
        #expect(
            engines.count
                == history.steps.filter { if case .write = $0 { false } else { true } }.count)
        for (index, observed) in engines.enumerated() {
            for (other, name) in [(setBased[index], "set-based"), (rowByRow[index], "row by row")] {
                #expect(other.items == observed.items, "step \(index): \(name)")
                #expect(other.parts == observed.parts, "step \(index): \(name)")
                #expect(other.event == observed.event, "step \(index): \(name)")
            }
        }
    }
}
