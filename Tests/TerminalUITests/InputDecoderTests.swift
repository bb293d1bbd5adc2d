import Testing

@testable import TerminalUI

/// The raw units a terminal sends for `text`, one scalar each.
func rawInput(_ text: String) -> [RawInput] {
    text.unicodeScalars.map(RawInput.scalar)
}

/// Feeds `text` to a fresh decoder, then a timeout when `thenTimeout` is set.
func decode(_ text: String, thenTimeout: Bool = false) -> [InputEvent] {
    var decoder = InputDecoder()
    var events = decoder.feed(contentsOf: rawInput(text))
    if thenTimeout { events += decoder.feed(.timeout) }
    return events
}

@Suite struct InputDecoderKeyTests {
    @Test func printableTextIsCharacters() {
        #expect(
            decode("aZ 漢😀é")
                == [
                    .key(.character("a")), .key(.character("Z")), .key(.character(" ")),
                    .key(.character("漢")), .key(.character("😀")), .key(.character("é")),
                ])
    }

    @Test func controlBytesAreControlKeys() {
        #expect(
            decode("\u{01}\u{11}\u{13}\u{19}\u{1A}\u{17}\u{14}\u{18}")
                == [
                    .key(.control("a")), .key(.control("q")), .key(.control("s")),
                    .key(.control("y")), .key(.control("z")), .key(.control("w")),
                    .key(.control("t")), .key(.control("x")),
                ])
    }

    @Test func tabEnterAndBackspaceAreNamedKeys() {
        #expect(
            decode("\t\r\n\u{7F}\u{08}")
                == [.key(.tab), .key(.enter), .key(.enter), .key(.backspace), .key(.backspace)])
    }

    @Test func otherControlBytesNameTheirKey() {
        #expect(
            decode("\u{00}\u{1C}\u{1D}\u{1F}")
                == [
                    .key(.control("@")), .key(.control("\\")), .key(.control("]")),
                    .key(.control("_")),
                ])
    }

    @Test func c1ControlsAreDropped() {
        #expect(decode("a\u{85}\u{9B}b") == [.key(.character("a")), .key(.character("b"))])
    }

    @Test func escapeThenCharacterIsAlt() {
        #expect(
            decode("\u{1B}u\u{1B}e\u{1B}1\u{1B}U")
                == [.key(.alt("u")), .key(.alt("e")), .key(.alt("1")), .key(.alt("U"))])
    }

    @Test func loneEscapeWaitsForTheTimeout() {
        var decoder = InputDecoder()
        #expect(decoder.feed(.scalar("\u{1B}")) == [])
        #expect(decoder.pendingTimeout == .milliseconds(25))
        #expect(decoder.feed(.timeout) == [.key(.escape)])
        #expect(decoder.pendingTimeout == nil)
        #expect(decoder.feed(.scalar("x")) == [.key(.character("x"))])
    }

    @Test func escapeTwiceIsEscapeThenPending() {
        #expect(decode("\u{1B}\u{1B}", thenTimeout: true) == [.key(.escape), .key(.escape)])
        #expect(decode("\u{1B}\u{1B}[A") == [.key(.escape), .key(.up)])
    }

    @Test func escapeThenControlIsEscapeThenTheControl() {
        #expect(decode("\u{1B}\r") == [.key(.escape), .key(.enter)])
    }

    @Test func csiArrowsHomeEndAndShiftTab() {
        #expect(
            decode("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D\u{1B}[H\u{1B}[F\u{1B}[Z\u{1B}[1;5A")
                == [
                    .key(.up), .key(.down), .key(.right), .key(.left), .key(.home), .key(.end),
                    .key(.backTab), .key(.up),
                ])
    }

    @Test func escapeThenBackspaceIsAltBackspace() {
        #expect(decode("\u{1B}\u{7F}\u{1B}\u{08}") == [.key(.altBackspace), .key(.altBackspace)])
    }

    @Test func controlHomeAndEndKeepTheirControl() {
        #expect(
            decode(
                "\u{1B}[1;5H\u{1B}[1;5F\u{1B}[1;2H\u{1B}[1;6F\u{1B}[7;5~\u{1B}[8;5~\u{1B}[7^")
                == [
                    .key(.controlHome), .key(.controlEnd), .key(.shift(.home)),
                    .key(.shift(.controlEnd)),
                    .key(.controlHome), .key(.controlEnd), .key(.controlHome),
                ])
    }

    /// xterm's forms (Ctrl alone, with Shift, with Alt), then rxvt's, then Shift alone.
    @Test func controlLeftRightAndDeleteKeepTheirControl() {
        #expect(
            decode(
                "\u{1B}[1;5D\u{1B}[1;5C\u{1B}[3;5~\u{1B}[1;6D\u{1B}[1;7C\u{1B}Od\u{1B}Oc\u{1B}[3^"
                    + "\u{1B}[1;2D\u{1B}[3;2~")
                == [
                    .key(.controlLeft), .key(.controlRight), .key(.controlDelete),
                    .key(.shift(.controlLeft)), .key(.controlRight), .key(.controlLeft),
                    .key(.controlRight), .key(.controlDelete), .key(.shift(.left)),
                    .key(.shift(.delete)),
                ])
    }

    /// Shift on every named key, as xterm sends it and as rxvt sends it on the arrows; Alt is
    /// dropped.
    @Test func shiftIsKeptOnNamedKeys() {
        let xterm = ["A", "B", "C", "D", "H", "F"].map { "\u{1B}[1;2\($0)" }
        #expect(
            decode(xterm.joined())
                == [.up, .down, .right, .left, .home, .end].map { .key(.shift($0)) })
        #expect(
            decode("\u{1B}[5;2~\u{1B}[6;2~\u{1B}[1;2R\u{1B}[13;2~\u{1B}[1;4C\u{1B}[1;3C")
                == [
                    .key(.shift(.pageUp)), .key(.shift(.pageDown)), .key(.shift(.function(3))),
                    .key(.shift(.function(3))), .key(.shift(.right)), .key(.right),
                ])
        #expect(
            decode("\u{1B}[a\u{1B}[b\u{1B}[c\u{1B}[d")
                == [.up, .down, .right, .left].map { .key(.shift($0)) })
    }

    /// ^H is Ctrl-Backspace where the terminal's Backspace sends ^? (most do), Backspace
    /// elsewhere; after ESC it is Alt-Backspace either way.
    @Test func controlHIsControlBackspaceWhereBackspaceSendsDelete() {
        var decoder = InputDecoder(readsControlHAsControlBackspace: true)
        #expect(
            decoder.feed(contentsOf: rawInput("\u{08}\u{7F}\u{1B}\u{08}"))
                == [.key(.controlBackspace), .key(.backspace), .key(.altBackspace)])
        #expect(decode("\u{08}\u{7F}") == [.key(.backspace), .key(.backspace)])
    }

    @Test func csiTildeKeys() {
        let sequences = ["1", "2", "3", "4", "5", "6", "7", "8"].map { "\u{1B}[\($0)~" }
        #expect(
            decode(sequences.joined())
                == [
                    .key(.home), .key(.insert), .key(.delete), .key(.end), .key(.pageUp),
                    .key(.pageDown), .key(.home), .key(.end),
                ])
    }

    @Test func functionKeys() {
        let tilde = [11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 23, 24].map { "\u{1B}[\($0)~" }
        let ss3 = ["P", "Q", "R", "S"].map { "\u{1B}O\($0)" }
        #expect(decode(tilde.joined()) == (1...12).map { .key(.function($0)) })
        #expect(decode(ss3.joined()) == (1...4).map { .key(.function($0)) })
        #expect(
            decode("\u{1B}[1;2P\u{1B}[15;5~") == [.key(.shift(.function(1))), .key(.function(5))])
    }

    @Test func linuxConsoleFunctionKeys() {
        #expect(
            decode("\u{1B}[[A\u{1B}[[B\u{1B}[[C\u{1B}[[D\u{1B}[[E")
                == (1...5).map { .key(.function($0)) })
        #expect(
            decode("\u{1B}[[x") == [.key(.alt("[")), .key(.character("[")), .key(.character("x"))])
    }

    @Test func ss3ArrowsFromApplicationMode() {
        #expect(
            decode("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD\u{1B}OH\u{1B}OF\u{1B}OM")
                == [
                    .key(.up), .key(.down), .key(.right), .key(.left), .key(.home), .key(.end),
                    .key(.enter),
                ])
    }

    @Test func unknownSequencesAreIgnored() {
        #expect(decode("\u{1B}[99~\u{1B}[I\u{1B}[?1;2cx") == [.key(.character("x"))])
    }

    @Test func brokenOffSequenceIsAltThenWhatFollowed() {
        #expect(decode("\u{1B}[1", thenTimeout: true) == [.key(.alt("[")), .key(.character("1"))])
        #expect(decode("\u{1B}O", thenTimeout: true) == [.key(.alt("O"))])
        #expect(decode("\u{1B}Ox") == [.key(.alt("O")), .key(.character("x"))])
        #expect(decode("\u{1B}[\u{1B}[A") == [.key(.alt("[")), .key(.up)])
    }

    @Test func sequencesSplitAcrossFeedsDecodeTheSame() {
        let text = "a\u{1B}[A\u{1B}x\u{1B}[<0;3;4M\u{1B}[200~hi\u{1B}[201~\u{1B}OP"
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        for unit in rawInput(text) {
            events += decoder.feed(unit)
        }
        #expect(
            events == [
                .key(.character("a")), .key(.up), .key(.alt("x")),
                .mouse(MouseEvent(kind: .press(.left), position: Point(x: 2, y: 3))),
                .paste("hi"), .key(.function(1)),
            ])
        #expect(decoder.pendingTimeout == nil)
    }
}
