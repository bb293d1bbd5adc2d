import SQLiteDatabase
import SQLiteUndo
import Testing

/// One edit merged into a text someone else changed since.
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
        // Theirs on both sides of mine (two edits, read as one splice around mine): mine is
        // found by the bytes around it.
        (
            "the quick brown fox", "the quick red fox", "< the quick brown fox >",
            "< the quick red fox >"
        ),
        ("ab", "aXb", "<ab>", "<aXb>"),
        ("the quick brown fox", "the quick red fox", "< the quick green fox >", nil),
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
/// one text each take back only their own typing, keeping the other's.
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

    /// A types a line, B a word after it, A another after that; both undo and redo all of it
    /// (A's redos after B's), then B undoes its word: only its word goes.
    @Test func aWordUndoesAfterBothStacksUndidAndRedidAroundIt() throws {
        try type(paneA, "the body\nAAA")
        try type(paneB, "the body\nAAA BBB")
        try type(paneA, "the body\nAAA BBB CCC")
        for _ in 0..<2 { #expect(try paneA.undo()?.conflicts == []) }
        #expect(try name() == "the body BBB")
        #expect(try paneB.undo()?.conflicts == [])
        #expect(try paneB.redo()?.conflicts == [])
        for _ in 0..<2 { #expect(try paneA.redo()?.conflicts == []) }
        #expect(try name() == "the body\nAAA BBB CCC")
        #expect(try paneB.undo()?.conflicts == [])
        #expect(try name() == "the body\nAAA CCC")
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

    /// One key of a typing run: a barrier that coalesces with the stack's previous one.
    func typeKey(_ pane: UndoStack, _ name: String, run: String) throws {
        try withUndoStack(pane) {
            try undoable("Typing", coalescing: run) {
                try fixture.execute("UPDATE items SET name = ?", [.text(name)])
            }
        }
    }

    /// Two stacks typing into one text, key by key, each elsewhere in it: each run stays one
    /// step (the other's keys in between are not in it), and undoes and redoes whole.
    @Test func aRunStaysOneStepWhileAnotherStackTypesElsewhereInTheText() throws {
        try typeKey(paneA, "Athe body", run: "a")
        try typeKey(paneB, "Athe bodyx", run: "b")
        try typeKey(paneA, "ABthe bodyx", run: "a")
        try typeKey(paneB, "ABthe bodyxy", run: "b")
        try typeKey(paneA, "ABCthe bodyxy", run: "a")
        #expect(paneA.state.undo.count == 1)
        #expect(paneB.state.undo.count == 1)
        #expect(try paneA.undo()?.conflicts == [])
        #expect(try name() == "the bodyxy")
        #expect(try paneB.undo()?.conflicts == [])
        #expect(try name() == "the body")
        _ = try paneA.redo()
        #expect(try name() == "ABCthe body")
        _ = try paneB.redo()
        #expect(try name() == "ABCthe bodyxy")
    }

    /// A key that also inserts a row of the merged table (a chunk of a long text cut in two):
    /// the run stays one step, and its undo takes the new row back with the typing.
    @Test func aKeyInsertingARowOfTheMergedTableStaysInTheRun() throws {
        try typeKey(paneA, "Athe body", run: "a")
        try withUndoStack(paneA) {
            try undoable("Typing", coalescing: "a") {
                try fixture.db.write { db in
                    try db.execute("UPDATE items SET name = 'ABthe'")
                    try db.execute("INSERT INTO items(name, value) VALUES (' body', 'v')")
                }
            }
        }
        try withUndoStack(paneA) {
            try undoable("Typing", coalescing: "a") {
                try fixture.execute("UPDATE items SET name = ' bodyC' WHERE id = 2")
            }
        }
        #expect(paneA.state.undo.count == 1)
        #expect(try paneA.undo()?.conflicts == [])
        #expect(try fixture.rows() == [[1, "the body", "v", 0]])
        _ = try paneA.redo()
        #expect(try fixture.rows() == [[1, "ABthe", "v", 0], [2, " bodyC", "v", 0]])
    }

    /// A write outside any barrier (another program) between two keys of a run: the run stays
    /// one step, and its undo keeps that write.
    @Test func aRunStaysOneStepOverAnotherProgramsWriteElsewhereInTheText() throws {
        try typeKey(paneA, "Athe body", run: "a")
        try withUndoDisabled { try fixture.execute("UPDATE items SET name = 'Athe body!'") }
        try typeKey(paneA, "ABthe body!", run: "a")
        #expect(paneA.state.undo.count == 1)
        #expect(try paneA.undo()?.conflicts == [])
        #expect(try name() == "the body!")
        _ = try paneA.redo()
        #expect(try name() == "ABthe body!")
    }

    /// A timestamp both stacks set at every key (`treatAsTimestamps`): the other's stamps in
    /// between do not cut the run, and its undo leaves the stamp the other set last.
    @Test func aRunStaysOneStepOverTheOthersTimestamps() throws {
        fixture.engine.treatAsTimestamps(ofColumns: ["value"], in: Items.self)
        func key(_ pane: UndoStack, _ name: String, at stamp: String, run: String) throws {
            try withUndoStack(pane) {
                try undoable("Typing", coalescing: run) {
                    try fixture.execute(
                        "UPDATE items SET name = ?, value = ?", [.text(name), .text(stamp)])
                }
            }
        }
        try key(paneA, "Athe body", at: "t1", run: "a")
        try key(paneB, "Athe bodyx", at: "t2", run: "b")
        try key(paneA, "ABthe bodyx", at: "t3", run: "a")
        #expect(paneA.state.undo.count == 1)
        #expect(try paneA.undo()?.conflicts == [])
        #expect(try fixture.rows()[0] == [1, "the bodyx", "t2", 0])
        _ = try paneA.redo()
        #expect(try fixture.rows()[0] == [1, "ABthe bodyx", "t3", 0])
        // Without it, the stamp in between cuts the run.
        try key(paneB, "ABthe bodyxy", at: "t4", run: "b2")
        #expect(paneB.state.undo.count == 2)
    }

    /// Someone changed the very text the run typed: the run is cut there, and each part undoes
    /// by the usual rule.
    @Test func aRunIsCutWhereAnotherChangedItsOwnText() throws {
        try typeKey(paneA, "the bodyA", run: "a")
        try withUndoDisabled { try fixture.execute("UPDATE items SET name = 'the bodyZ'") }
        try typeKey(paneA, "the bodyZC", run: "a")
        #expect(paneA.state.undo.count == 2)
        _ = try paneA.undo()
        #expect(try name() == "the bodyZ")
        let first = try paneA.undo()
        #expect(first?.conflicts.map(\.column) == ["name"])
        #expect(try name() == "the bodyZ")
    }

    /// A past run taken back (`revert`) after others typed on both sides of it, in steps of
    /// their own, and the run's own stack typed after it: only the run's own characters go,
    /// in a short text (whole values in the log) and in a long one (edits packed).
    @Test(arguments: [0, 700])
    func aPastRunTakenBackLeavesEveryoneElsesTyping(padding: Int) throws {
        let tail = String(repeating: "z", count: padding)
        try fixture.execute("UPDATE items SET name = ?", [.text("the body" + tail)])
        try typeKey(paneA, "the Abody" + tail, run: "a")
        try typeKey(paneA, "the ABbody" + tail, run: "a")
        try type(paneA, "the ABbody" + tail + "!")
        try type(paneB, "< the ABbody" + tail + "!")
        try type(paneB, "< the ABbody" + tail + "! >")
        try withUndoDisabled {
            try fixture.execute(
                "UPDATE items SET name = ?", [.text("< the ABbody" + tail + "! >.")])
        }
        let run = try #require(paneA.history.undo.last)
        #expect(run.name == "Typing")
        let takeBack = try #require(try paneA.revert(run))
        #expect(takeBack.conflicts == [])
        #expect(try name() == .text("< the body" + tail + "! >."))
        _ = try paneA.undo()
        #expect(try name() == .text("< the ABbody" + tail + "! >."))
    }

    /// Where others changed the run's own characters, the take-back keeps the text.
    @Test(arguments: [0, 700])
    func aPastRunWhoseCharactersOthersChangedIsKept(padding: Int) throws {
        let tail = String(repeating: "z", count: padding)
        try fixture.execute("UPDATE items SET name = ?", [.text("the body" + tail)])
        try typeKey(paneA, "the ABbody" + tail, run: "a")
        try type(paneA, "the ABbody" + tail + "!")
        try type(paneB, "the AXbody" + tail + "!")
        let run = try #require(paneA.history.undo.last)
        let takeBack = try #require(try paneA.revert(run))
        #expect(takeBack.conflicts.map(\.column) == ["name"])
        #expect(try name() == .text("the AXbody" + tail + "!"))
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
