import Foundation
import TestSupport
import Testing

/// Selection, the clipboard and find in the real program, as a micro or nano user presses them:
/// Shift-arrows select (drawn reversed), Ctrl-C copies (to the terminal's clipboard too, by OSC
/// 52, which tmux takes with `set-clipboard on`), Ctrl-X cuts, Ctrl-V pastes, Ctrl-Z undoes a
/// cut; Ctrl-F finds (wrapping to the top with a word), F3 goes on.
extension NotesEndToEndTests {
    /// A new article titled `title` with `body`, open in the left pane with the cursor at the
    /// end of its body.
    func newArticle(_ session: TmuxSession, title: String, body: String) throws {
        try session.waitFor("Welcome to notes")
        try session.send("C-n")
        try session.waitFor("Editing the title")
        try session.sendLiteral(title)
        try session.send("Tab")
        try session.sendLiteral(body)
        try session.waitUntil("the body typed") { firstBodyLine($0) == body }
    }

    @Test func shiftArrowsSelectAndTheClipboardKeysCopyCutAndPaste() throws {
        let session = try TmuxSession(arguments: ["--db", notebook], folder: folder)
        try TmuxSession.tmux(["set-option", "-s", "set-clipboard", "on"])
        try newArticle(session, title: "Colors", body: "red green blue")
        try session.send("Home", "S-Right", "S-Right", "S-Right", "C-S-Right")
        // "red green" reversed: the selection shows without color too.
        try session.waitUntil("\"red green\" drawn selected", styled: true) {
            $0.contains("\u{1B}[7mred green\u{1B}[0m")
        }
        try session.send("C-c")
        try session.waitFor("Copied 9 characters")
        #expect(try TmuxSession.tmux(["show-buffer"]) == "red green")
        try session.send("End", "C-v")
        try session.waitUntil("pasted at the end") {
            firstBodyLine($0) == "red green bluered green"
        }
        try session.send("Home", "S-C-Right", "C-x")
        try session.waitUntil("the first word cut") { firstBodyLine($0) == "green bluered green" }
        try session.waitFor("Cut 3 characters")
        try session.send("C-z")
        try session.waitUntil("the cut undone") { firstBodyLine($0) == "red green bluered green" }
        try session.waitFor("Undid Cut")
        // Typing replaces the selection the undo brought back.
        try session.sendLiteral("RED")
        try session.waitUntil("typed over") { firstBodyLine($0) == "RED green bluered green" }
        try session.send("C-q")
        try session.waitFor("EXIT=0")
        #expect(try body(titled: "Colors") == "RED green bluered green")
    }

    /// One clipboard for the window: copied in the left pane, pasted into a new article in the
    /// right one.
    @Test func aCopyInOnePanePastesInTheOther() throws {
        let session = try TmuxSession(
            arguments: ["--db", notebook, "--panes", "2"], folder: folder)
        try newArticle(session, title: "Source", body: "alpha beta")
        try session.send("Home", "S-End", "C-c")
        try session.waitFor("Copied 10 characters")
        try session.send("C-w", "C-n")
        try session.waitFor("Editing the title")
        try session.sendLiteral("Target")
        try session.send("Tab", "C-v")
        try session.waitFor("Undo Paste")
        try session.send("C-q")
        try session.waitFor("EXIT=0")
        #expect(try body(titled: "Target") == "alpha beta")
        #expect(try body(titled: "Source") == "alpha beta")
    }

    @Test func ctrlFFindsWrappingToTheTopAndF3GoesOn() throws {
        let session = try TmuxSession(arguments: ["--db", notebook], folder: folder)
        try newArticle(session, title: "Finding", body: "one two One three")
        try session.send("C-f")
        // Nothing after the cursor at the end: the first match from the top.
        try session.sendLiteral("one")
        try session.waitFor(" Find: one │ Wrapped to the top")
        try session.send("F3", "Enter")
        try session.waitUntil("the prompt closed") { !$0.contains(" Find: one") }
        try session.sendLiteral("_")
        try session.waitUntil("typed at the second match") {
            firstBodyLine($0) == "one two _One three"
        }
        try session.send("C-f")
        try session.sendLiteral("zebra")
        try session.waitFor("No match for “zebra”")
        try session.send("Escape", "C-q")
        try session.waitFor("EXIT=0")
        #expect(try body(titled: "Finding") == "one two _One three")
    }
}
