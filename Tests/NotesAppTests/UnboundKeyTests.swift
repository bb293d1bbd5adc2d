import TerminalUI
import Testing

@testable import NotesApp

/// Every key answers: a key that does nothing where it is pressed says so in the status line
/// and names F1, and nano's and micro's keys say what to press here instead.
@MainActor @Suite struct UnboundKeyTests {
    /// Presses every key of `KeymapTests.keys` that `takes` says nothing takes, in an app of
    /// `size` brought to the place by `reach`, and expects the place's message for it, shown.
    func expectEveryUnboundKeyAnswers(
        in place: UnboundKey.Place, size: Size = Size(width: 80, height: 12),
        reach: (AppFixture) -> Void, takes: (Key) -> Bool
    ) throws {
        let fixture = try AppFixture(size: size)
        reach(fixture)
        for key in KeymapTests.keys where !takes(key) {
            fixture.app.message = nil
            fixture.press(key)
            let expected = UnboundKey.message(for: key, in: place)
            #expect(fixture.app.message == expected, "\(key)")
            #expect(fixture.screen.contains(expected), "\(key): \(fixture.screen)")
        }
    }

    @Test func inTheList() throws {
        try expectEveryUnboundKeyAnswers(in: .list, reach: { _ in }) {
            Keymaps.list.action(for: $0) != nil || Keymaps.everywhere.action(for: $0) != nil
        }
    }

    @Test func inAnOpenArticle() throws {
        try expectEveryUnboundKeyAnswers(in: .article, reach: { $0.press(.enter) }) {
            Keymaps.editor.action(for: $0) != nil || Keymaps.everywhere.action(for: $0) != nil
        }
    }

    @Test func inTheHistoryPanel() throws {
        try expectEveryUnboundKeyAnswers(
            in: .history,
            reach: {
                $0.press(.character("4"))
                $0.press(.alt("h"))
            }
        ) {
            Keymaps.history.action(for: $0) != nil || Keymaps.everywhere.action(for: $0) != nil
        }
    }

    /// In a terminal tall enough that the picker's box leaves the status line free.
    @Test func inTheAuthorPicker() throws {
        try expectEveryUnboundKeyAnswers(
            in: .picker, size: Size(width: 120, height: 40), reach: { $0.press(.character("a")) }
        ) {
            Keymaps.picker.action(for: $0) != nil
        }
    }

    @Test func theMessagesNameTheKeyAndF1() {
        #expect(
            UnboundKey.message(for: .control("k"), in: .list)
                == "Ctrl-K does nothing here · F1: keys")
        #expect(
            UnboundKey.message(for: .function(5), in: .article) == "F5 does nothing here · F1: keys"
        )
        #expect(
            UnboundKey.message(for: .character("x"), in: .list) == "x does nothing here · F1: keys")
        #expect(
            UnboundKey.message(for: .alt("q"), in: .history) == "Alt-Q does nothing here · F1: keys"
        )
        #expect(
            UnboundKey.message(for: .control("@"), in: .list)
                == "Ctrl-Space does nothing here · F1: keys")
    }

    /// nano's and micro's keys: find and copy in the list, save, help, nano's cut and paste.
    @Test func habitsFromNanoAndMicroSayWhatToPressInstead() throws {
        let fixture = try AppFixture()
        fixture.press(.control("f"))
        #expect(fixture.app.message == "Ctrl-F: / searches the list · F1: keys")
        fixture.press(.control("o"))
        #expect(fixture.app.message == "Ctrl-O: notes saves every change as you make it · F1: keys")
        fixture.press(.control("g"))
        #expect(fixture.app.message == "Ctrl-G: the keys are on F1")
        fixture.press(.control("c"))
        #expect(fixture.app.message == "Ctrl-C: copies in an open article · F1: keys")
        fixture.press(.control("v"))
        #expect(fixture.app.message == "Ctrl-V: pastes in an open article · F1: keys")
        fixture.press(.enter, .control("k"))
        #expect(fixture.app.message == "Ctrl-K: Ctrl-X cuts the line here · F1: keys")
        fixture.press(.control("u"))
        #expect(fixture.app.message == "Ctrl-U: Ctrl-V pastes here · F1: keys")
        // Nothing was typed or changed.
        #expect(fixture.app.focusedPane.editor?.buffer.text == "Body of article 3")
    }
}
