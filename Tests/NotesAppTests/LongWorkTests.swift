import NoteStore
import TerminalUI
import Testing

@testable import NotesApp

/// Long work shows its progress in the status line over the frame it started from; here shown
/// at once and drawn at every look SQLite gives (the app's `progressTiming`), so no clock is
/// involved. The real binary in tmux: `ProgressEndToEndTests`.
@MainActor @Suite struct LongWorkTests {
    /// The progress frames drawn since recording began, each as (rows done, rows in all),
    /// checked against `before` outside the status line; the status line must start with
    /// `prefix`.
    private func progressFrames(
        _ fixture: AppFixture, prefix: String, over before: String
    ) -> [(done: Int, total: Int)] {
        var found: [(Int, Int)] = []
        for screen in fixture.backend.recordedScreens {
            var lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            let status = String(lines.remove(at: 11))
            guard status.hasPrefix(prefix) else { continue }
            let numbers = status.dropFirst(prefix.count).replacingOccurrences(of: ",", with: "")
                .split(separator: " ")
            guard numbers.count == 4, numbers[1] == "of", numbers[3] == "rows",
                let done = Int(numbers[0]), let total = Int(numbers[2])
            else {
                Issue.record("a progress line that does not read right: \(status)")
                continue
            }
            var unchanged = before.split(separator: "\n", omittingEmptySubsequences: false)
            unchanged.remove(at: 11)
            #expect(lines == unchanged, "a progress frame changed more than the status line")
            found.append((done, total))
        }
        return found
    }

    private func expectSteady(_ frames: [(done: Int, total: Int)], total: Int) {
        #expect(frames.count >= 2)
        #expect(frames.allSatisfy { $0.total == total && $0.done <= total })
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.done <= $1.done })
        #expect(frames.contains { $0.done > 0 && $0.done < total })
    }

    /// The real program's timing comes from `NOTES_PROGRESS_AFTER_MS` and
    /// `NOTES_PROGRESS_EVERY_MS`; what is not a whole number of 0 or more keeps the default.
    @Test func theProgressTimingComesFromTheEnvironment() {
        let defaults = (
            shownAfter: Duration.milliseconds(500), interval: Duration.milliseconds(100)
        )
        let cases: [([String: String], Duration, Duration)] = [
            ([:], .milliseconds(500), .milliseconds(100)),
            (["NOTES_PROGRESS_AFTER_MS": "0", "NOTES_PROGRESS_EVERY_MS": "0"], .zero, .zero),
            (["NOTES_PROGRESS_AFTER_MS": "2000"], .seconds(2), .milliseconds(100)),
            (
                ["NOTES_PROGRESS_AFTER_MS": "-1", "NOTES_PROGRESS_EVERY_MS": "soon"],
                .milliseconds(500), .milliseconds(100)
            ),
        ]
        for (environment, shownAfter, interval) in cases {
            let timing = NotesProgram.progressTiming(environment, default: defaults)
            #expect(
                timing.shownAfter == shownAfter && timing.interval == interval, "\(environment)")
        }
    }

    @Test func deletingAnAuthorAndItsUndoAndRedoShowTheirRows() throws {
        let fixture = try AppFixture(articles: 300, size: Size(width: 100, height: 14))
        fixture.app.progressTiming = (.zero, .zero)
        fixture.press(.character("a"), .delete)
        #expect(fixture.screen.contains("Delete Alice and 300 articles? y/n"))
        fixture.backend.recordsScreens = true
        fixture.press(.character("y"))
        // First the list without the question, then the progress over it: the author, 300
        // articles and their 300 bodies' chunks.
        let listed = try #require(fixture.backend.recordedScreens.first)
        #expect(!listed.contains("? y/n") && listed.contains("Article 300"))
        expectSteady(
            progressFrames(fixture, prefix: " Pane 1 │ Deleting Alice: ", over: listed),
            total: 601)
        #expect(try fixture.titles().isEmpty)
        #expect(fixture.screen.contains(" │ Deleted Alice and 300 articles (Ctrl-Z brings them…"))

        for (key, verb) in [("z", "Undoing"), ("y", "Redoing")] {
            let before = fixture.screen
            fixture.press(.control(Character(key)))
            expectSteady(
                progressFrames(fixture, prefix: " Pane 1 │ \(verb) Delete Author: ", over: before),
                total: 601)
        }
        #expect(try fixture.titles().isEmpty)
        #expect(fixture.screen.contains("Redid Delete Author"))
    }
}
