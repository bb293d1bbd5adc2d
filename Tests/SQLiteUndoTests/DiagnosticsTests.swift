import SQLiteDatabase
import Testing

@testable import SQLiteUndo

/// Runs when the engine checks after every replay (`UndoDiagnostics.isOn`): built with the
/// `UndoDiagnostics` trait, or run with `SQLITEUNDO_DIAGNOSTICS=1`.
@Suite(.enabled(if: UndoDiagnostics.isOn)) struct DiagnosticsTests {
    @Test func replayWithACorruptedLogIsCaught() throws {
        let fixture = try Fixture()
        try undoable("A") { try fixture.execute("INSERT INTO items(name) VALUES ('a')") }
        try undoable("B") { try fixture.execute("INSERT INTO items(name) VALUES ('b')") }
        // Behind the engine's back, the log loses barrier A's rows.
        try fixture.execute(
            "DELETE FROM sqliteundo_log WHERE barrier = (SELECT min(id) FROM sqliteundo_barriers)"
        )
        #expect {
            try fixture.engine.defaultStack.undo()
        } throws: { error in
            guard case .replayFailed(let name, let reason, _) = error as? UndoError else {
                return false
            }
            return name == "B" && reason.contains("registered barriers without log rows")
        }
        #expect(try fixture.rows().map { $0[1] } == ["a", "b"])
    }
}
