import SQLiteDatabase
import SQLiteUndo
import Testing

/// One edit merged into a text someone else changed since (issue 19, item 1).
@Suite struct TextSpliceTests {
    static let cases: [(base: String, mine: String, theirs: String, merged: String?)] = [
        // Apart: both apply, in either order of places.
        ("hello world", "Xhello world", "hello world EXT", "Xhello world EXT"),
        ("hello world", "hello world!", "EXT hello world", "EXT hello world!"),
        ("hello world", "hello, world", "hello wide world", "hello, wide world"),
        ("hello world", "hello", "hi hello world", "hi hello"),
        // Two insertions at one point: theirs first.
        ("abc", "abcX", "abc EXT", "abc EXTX"),
        ("", "x", "y", "yx"),
        // Touching: a replacement ending where the other begins.
        ("abcdef", "xyzdef", "abcQQQ", "xyzQQQ"),
        ("abc", "Xabc", "bc", "Xbc"),
        // A change with two places (" one" or "one "): the one that misses theirs.
        ("Article 3 one two", "Article 3 one", "Article 3 two", "Article 3"),
        ("a b b c", "a b c", "a b b", "a b"),
        // The same bytes changed: no merge.
        ("hello world", "hello there", "hello earth", nil),
        ("abc", "aXc", "aYc", nil),
        // Nothing changed on one side.
        ("same", "same", "changed", "changed"),
        ("same", "mine", "same", "mine"),
        // Wide characters and emoji keep whole.
        ("東京 🗼 trip", "東京 🗼 great trip", "東京 🗼 trip 🎉", "東京 🗼 great trip 🎉"),
        ("e\u{301}x", "e\u{301}xy", "ze\u{301}x", "ze\u{301}xy"),
    ]

    @Test(arguments: cases)
    func editsInDifferentPlacesBothApply(
        base: String, mine: String, theirs: String, merged: String?
    ) {
        #expect(TextSplice.merge(base: base, mine: mine, theirs: theirs) == merged)
    }
}

/// Undo of a text column the engine merges (`UndoEngine.mergeText`): two stacks typing into
/// one text each take back only their own typing, keeping the other's (issue 19, item 1).
@Suite struct TextMergeUndoTests {
    let fixture: Fixture
    let paneA: UndoStack
    let paneB: UndoStack

    struct Items: Table {
        static let tableName = "items"
    }

    init() throws {
        fixture = try Fixture()
        fixture.engine.mergeText(ofColumns: ["name"], in: Items.self)
        try fixture.execute("INSERT INTO items(id, name, value) VALUES (1, 'the body', 'v')")
        paneA = try fixture.engine.stack(id: "A")
        paneB = try fixture.engine.stack(id: "B")
    }

    func type(_ pane: UndoStack, _ name: String) throws {
        try withUndoStack(pane) {
            try undoable("Typing") {
                try fixture.execute("UPDATE items SET name = ?", [.text(name)])
            }
        }
    }

    func name() throws -> SQLiteValue { try fixture.rows()[0][1] }

    @Test func eachStacksUndoTakesBackOnlyItsOwnTyping() throws {
        try type(paneA, "A: the body")
        try type(paneB, "A: the body :B")
        // A's undo finds the text changed since (B typed): it takes back only "A: ".
        let undoA = try paneA.undo()
        #expect(undoA?.conflicts == [])
        #expect(try name() == "the body :B")
        let undoB = try paneB.undo()
        #expect(undoB?.conflicts == [])
        #expect(try name() == "the body")
        // Redo merges the same way.
        _ = try paneA.redo()
        #expect(try name() == "A: the body")
        _ = try paneB.redo()
        #expect(try name() == "A: the body :B")
    }

    @Test func typingOverTheSameWordsIsKeptAsAConflict() throws {
        try type(paneA, "the text")
        try type(paneB, "the tent")
        let undoA = try paneA.undo()
        #expect(
            undoA?.conflicts == [
                UndoConflict(
                    table: "items", rowid: 1, column: "name", kept: "the tent", keptFrom: "B")
            ])
        #expect(try name() == "the tent")
    }

    /// Columns not named to the engine keep the whole-value rule.
    @Test func otherColumnsAreKeptWhole() throws {
        try withUndoStack(paneA) {
            try undoable("Set Value") { try fixture.execute("UPDATE items SET value = 'va'") }
        }
        try withUndoStack(paneB) {
            try undoable("Set Value") { try fixture.execute("UPDATE items SET value = 'vab'") }
        }
        let undoA = try paneA.undo()
        #expect(undoA?.conflicts.map(\.column) == ["value"])
        #expect(try fixture.rows()[0][2] == "vab")
    }
}
