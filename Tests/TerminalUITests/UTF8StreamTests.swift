import Testing

@testable import TerminalUI

@Suite struct UTF8StreamTests {
    /// Decodes `chunks` in order with one stream, as successive terminal reads.
    func decode(_ chunks: [[UInt8]]) -> String {
        var stream = UTF8Stream()
        var scalars: [Unicode.Scalar] = []
        for chunk in chunks {
            chunk.withUnsafeBytes { stream.decode($0, into: &scalars) }
        }
        return String(String.UnicodeScalarView(scalars))
    }

    @Test func decodesWholeText() {
        let text = "a é 漢 😀 \u{1B}[A"
        #expect(decode([Array(text.utf8)]) == text)
    }

    @Test func characterSplitAcrossReadsDecodesOnce() {
        let bytes = Array("😀漢".utf8)
        #expect(
            decode([
                Array(bytes[0..<1]), Array(bytes[1..<3]), Array(bytes[3..<5]), Array(bytes[5...]),
            ]) == "😀漢")
    }

    @Test func malformedBytesBecomeReplacementCharacters() {
        #expect(decode([[0x61, 0x80, 0x62]]) == "a\u{FFFD}b")  // stray continuation
        #expect(decode([[0xC0, 0x80]]) == "\u{FFFD}\u{FFFD}")  // overlong NUL
        #expect(decode([[0xE0, 0x80, 0x80]]) == "\u{FFFD}")  // overlong, well-formed length
        #expect(decode([[0xED, 0xA0, 0x80]]) == "\u{FFFD}")  // surrogate
        #expect(decode([[0xE6, 0xBC, 0x41]]) == "\u{FFFD}A")  // cut short
        #expect(decode([[0xF5, 0x41]]) == "\u{FFFD}A")  // beyond U+10FFFF
    }
}
