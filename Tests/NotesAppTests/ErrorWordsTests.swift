import NoteStore
import SQLiteDatabase
import SQLiteUndo
import TerminalUI
import Testing

@testable import NotesApp

/// The status line says what went wrong in words, never SQL, result codes or
/// Swift values.
@Suite struct ErrorWordsTests {
    static let sql = "UPDATE articles SET body = ? WHERE id = ?"

    static let cases: [(SQLiteError, String)] = [
        (
            SQLiteError(code: .busy, message: "database is locked", sql: sql),
            "the notebook is busy: another program is writing to it; try again"
        ),
        (
            SQLiteError(code: .full, message: "database or disk is full", sql: sql),
            "the disk is full"
        ),
        (
            SQLiteError(code: .readOnly, message: "attempt to write a readonly database"),
            "the notebook cannot be written (read-only)"
        ),
        (
            SQLiteError(code: .constraint, message: "CHECK constraint failed: rating", sql: sql),
            "that breaks a rule of the notebook (CHECK constraint failed: rating)"
        ),
    ]

    @Test(arguments: cases)
    func sqliteErrorsAreSaidInWords(error: SQLiteError, words: String) {
        #expect(ErrorWords.describe(error) == words)
        let replay = UndoError.replayFailed(
            barrier: "Set Rating", reason: error.description, underlying: error)
        #expect(
            ErrorWords.describe(replay)
                == "could not take back “Set Rating”: \(words); nothing was changed")
    }

    /// A write that fails shows why, and that it was not saved, with no SQL.
    @Test @MainActor func aFailedWriteSaysSoInWords() throws {
        let fixture = try AppFixture(size: Size(width: 140, height: 12))
        try fixture.db.write {
            try $0.execute(
                """
                CREATE TRIGGER no_typing BEFORE UPDATE OF text ON article_chunks
                BEGIN SELECT RAISE(ABORT, 'bodies are frozen'); END
                """)
        }
        fixture.press(.enter)
        fixture.type("x")
        let status = fixture.screen.split(separator: "\n").suffix(3).first ?? ""
        #expect(
            status.hasSuffix(
                "│ Typing failed: that breaks a rule of the notebook (bodies are frozen); nothing "
                    + "was saved"))
        #expect(!status.contains("UPDATE"))
        #expect(fixture.app.focusedPane.editor?.buffer.text == "Body of article 3")
    }
}
