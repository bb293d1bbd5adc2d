import Testing

@testable import TerminalUI

@Suite struct PasteTests {
    @Test func multiLinePasteIsOneEventWithTabsAndEmoji() {
        let pasted = "first line\r\tindented 😀 漢字\r\nlast line with \u{1B} escape"
        #expect(
            decode("\u{1B}[200~" + pasted + "\u{1B}[201~x")
                == [
                    .paste("first line\n\tindented 😀 漢字\nlast line with \u{1B} escape"),
                    .key(.character("x")),
                ])
    }

    @Test func keysInsidePasteAreText() {
        #expect(decode("\u{1B}[200~\u{1A}\u{1B}[A\u{1B}[201~") == [.paste("\u{1A}\u{1B}[A")])
    }

    @Test func almostEndMarkerIsText() {
        #expect(
            decode("\u{1B}[200~a\u{1B}[201x\u{1B}\u{1B}[201~") == [.paste("a\u{1B}[201x\u{1B}")])
    }

    @Test func pasteWithoutEndMarkerEndsAtTheIdleTimeout() {
        var decoder = InputDecoder()
        #expect(decoder.feed(contentsOf: rawInput("\u{1B}[200~abc\u{1B}[20")) == [])
        #expect(decoder.pendingTimeout == .seconds(2))
        #expect(decoder.feed(.timeout) == [.paste("abc\u{1B}[20")])
        #expect(decoder.feed(.scalar("d")) == [.key(.character("d"))])
    }

    /// Ten megabytes pasted are one event with the whole text. Its speed is notes-bench's to
    /// measure (a timed test fails on a loaded machine); the limit only stops a decoder gone
    /// quadratic from hanging the suite.
    @Test(.timeLimit(.minutes(10)))
    func tenMegabytePasteIsOneEvent() {
        let line = "0123456789 abcdefghij ABCDEFGHIJ 😀 漢字 \t tab\r"
        let repeats = 10_000_000 / line.utf8.count + 1
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        events += decoder.feed(contentsOf: rawInput("\u{1B}[200~"))
        let units = rawInput(line)
        for _ in 0..<repeats {
            events += decoder.feed(contentsOf: units)
        }
        events += decoder.feed(contentsOf: rawInput("\u{1B}[201~"))
        #expect(events.count == 1)
        guard case .paste(let text) = events.first else {
            Issue.record("expected one paste, got \(events.count) events")
            return
        }
        let expectedLine = line.replacingCRWithLF()
        #expect(text.utf8.count == expectedLine.utf8.count * repeats)
        #expect(text.utf8.count >= 10_000_000)
        #expect(text.hasPrefix(expectedLine + expectedLine))
    }
}

extension String {
    fileprivate func replacingCRWithLF() -> String {
        String(unicodeScalars.map { $0 == "\r" ? "\n" : Character($0) })
    }
}

@Suite struct MouseTests {
    @Test func pressAndReleaseOfEachButton() {
        #expect(
            decode("\u{1B}[<0;1;1M\u{1B}[<0;1;1m\u{1B}[<1;10;5M\u{1B}[<2;120;40M\u{1B}[<2;120;40m")
                == [
                    .mouse(MouseEvent(kind: .press(.left), position: Point(x: 0, y: 0))),
                    .mouse(MouseEvent(kind: .release, position: Point(x: 0, y: 0))),
                    .mouse(MouseEvent(kind: .press(.middle), position: Point(x: 9, y: 4))),
                    .mouse(MouseEvent(kind: .press(.right), position: Point(x: 119, y: 39))),
                    .mouse(MouseEvent(kind: .release, position: Point(x: 119, y: 39))),
                ])
    }

    @Test func wheelAndDrag() {
        #expect(
            decode("\u{1B}[<64;5;6M\u{1B}[<65;5;6M\u{1B}[<32;7;8M\u{1B}[<35;7;8M\u{1B}[<66;1;1M")
                == [
                    .mouse(MouseEvent(kind: .wheelUp, position: Point(x: 4, y: 5))),
                    .mouse(MouseEvent(kind: .wheelDown, position: Point(x: 4, y: 5))),
                    .mouse(MouseEvent(kind: .drag, position: Point(x: 6, y: 7))),
                ])
    }

    @Test func modifiersDoNotChangeTheButton() {
        #expect(
            decode("\u{1B}[<16;3;3M\u{1B}[<8;3;3M")
                == [
                    .mouse(MouseEvent(kind: .press(.left), position: Point(x: 2, y: 2))),
                    .mouse(MouseEvent(kind: .press(.left), position: Point(x: 2, y: 2))),
                ])
    }

    @Test func malformedReportsAreIgnored() {
        #expect(
            decode("\u{1B}[<0;3M\u{1B}[<0;;1M\u{1B}[<0;1;1J\u{1B}[<0;1;1;1Mz") == [
                .key(.character("z"))
            ])
    }
}
