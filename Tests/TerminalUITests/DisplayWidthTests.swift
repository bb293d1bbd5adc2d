import Testing

@testable import TerminalUI

@Suite struct DisplayWidthTests {
    @Test func asciiIsOneColumnEach() {
        #expect(DisplayWidth.of("hello, world") == 12)
        #expect(DisplayWidth.of("") == 0)
    }

    @Test func cjkIsTwoColumns() {
        #expect(DisplayWidth.of("漢字") == 4)
        #expect(DisplayWidth.of("かな") == 4)
        #expect(DisplayWidth.of("한국어") == 6)
    }

    @Test func emojiIsTwoColumns() {
        #expect(DisplayWidth.of(Character("😀")) == 2)
        #expect(DisplayWidth.of("🎉🎉") == 4)
    }

    @Test func combiningMarksAddNothing() {
        let decomposed = "e\u{301}"
        #expect(decomposed.count == 1)
        #expect(DisplayWidth.of(decomposed) == 1)
        #expect(DisplayWidth.of("Cafe\u{301} a\u{308}\u{323}") == 6)
    }

    @Test func emojiSequencesAreTwoColumns() {
        #expect(DisplayWidth.of(Character("👨‍👩‍👧‍👦")) == 2)
        #expect(DisplayWidth.of(Character("🏳️‍🌈")) == 2)
        #expect(DisplayWidth.of(Character("❤️")) == 2)
        #expect(DisplayWidth.of(Character("👍🏽")) == 2)
        #expect(DisplayWidth.of(Character("🇯🇵")) == 2)
    }

    @Test func emojiNewerThanLibcIsStillTwoColumns() {
        // U+1FAE8 SHAKING FACE (Unicode 15) is unknown to older libc tables.
        #expect(DisplayWidth.of(Character("\u{1FAE8}")) == 2)
    }

    @Test func controlCharactersMeasureAsTheirStandIn() {
        #expect(DisplayWidth.of(Character("\u{1B}")) == 2)  // ^[
        #expect(DisplayWidth.of(Character("\t")) == 4)  // four spaces
        #expect(DisplayWidth.of(Character("\r\n")) == 4)  // ^M^J
        #expect(DisplayWidth.of(Character("\u{7F}")) == 2)  // ^?
        #expect(DisplayWidth.of(Character("\u{9B}")) == 1)  // U+FFFD
    }

    @Test func glyphsOfUnsafeCharactersAreVisibleStandIns() {
        #expect(Glyph("\u{1B}") == .replacement("^["))
        #expect(Glyph("\u{00}") == .replacement("^@"))
        #expect(Glyph("\r\n") == .replacement("^M^J"))
        #expect(Glyph("\u{85}") == .replacement("\u{FFFD}"))
        #expect(Glyph("\u{0378}") == .replacement("\u{FFFD}"))  // unassigned
        #expect(Glyph("\u{2028}") == .replacement("\u{FFFD}"))  // line separator
        #expect(Glyph("漢") == .text("漢", width: 2))
    }
}

@Suite struct SoftWrapTests {
    /// The wrapped lines of `text` as strings.
    func wrapped(_ text: String, width: Int) -> [String] {
        SoftWrap.lines(of: text, width: width).map { String(text[$0]) }
    }

    @Test func wrapsAtSpacesThatHang() {
        #expect(
            wrapped("the quick brown fox jumps over the lazy dog", width: 10)
                == ["the quick ", "brown fox ", "jumps over ", "the lazy ", "dog"])
    }

    @Test func mixedCJKAndEmojiParagraphAtWidthTen() {
        let text = "Notes 📝 keep 漢字かな and emoji 😀😀😀😀😀😀 together, e\u{301}tude!"
        let lines = wrapped(text, width: 10)
        #expect(
            lines == [
                "Notes 📝 ",
                "keep 漢字",
                "かな and ",
                "emoji 😀😀",
                "😀😀😀😀 ",
                "together, ",
                "e\u{301}tude!",
            ])
        for line in lines {
            #expect(DisplayWidth.of(line.trimmingTrailingSpaces()) <= 10)
        }
        #expect(lines.joined() == text)
    }

    @Test func longWordBreaksBetweenGraphemes() {
        #expect(wrapped("abcdefghijklmnop", width: 5) == ["abcde", "fghij", "klmno", "p"])
        #expect(wrapped("漢字漢字漢字", width: 5) == ["漢字", "漢字", "漢字"])
    }

    @Test func hardNewlinesEndLines() {
        #expect(wrapped("one\ntwo\r\n\nthree\n", width: 10) == ["one", "two", "", "three", ""])
        #expect(wrapped("", width: 10) == [""])
    }

    @Test func wideGraphemeInOneColumnGetsItsOwnLine() {
        #expect(wrapped("a漢b", width: 1) == ["a", "漢", "b"])
    }

    @Test func rangesCoverTheTextInOrder() {
        let text = "Über naïve café 漢字 👨‍👩‍👧 done"
        let ranges = SoftWrap.lines(of: text, width: 6)
        #expect(ranges.first?.lowerBound == text.startIndex)
        #expect(ranges.last?.upperBound == text.endIndex)
        for (previous, next) in zip(ranges, ranges.dropFirst()) {
            #expect(previous.upperBound == next.lowerBound)
        }
        #expect(
            ranges.map { String(text[$0]) } == ["Über ", "naïve ", "café ", "漢字 ", "👨‍👩‍👧 ", "done"])
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
