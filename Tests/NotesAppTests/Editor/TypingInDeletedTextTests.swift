import Testing

@testable import NotesApp

/// Typing at a place someone else deleted since: what was typed goes where their deletion was,
/// at a line's start where the deletion can be seen as starting one; anything else is refused.
@Suite struct TypingInDeletedTextTests {
    func merge(_ base: String, mine: String, theirs: String) -> String? {
        TypingInDeletedText.merge(base: base, mine: mine, theirs: theirs)
    }

    @Test func typingInsideTheirDeletionGoesWhereItWas() {
        #expect(merge("one two three", mine: "one twXo three", theirs: "one three") == "one Xthree")
        // Replacing or deleting text they deleted too.
        #expect(
            merge("one two three", mine: "one tXXo three", theirs: "one three") == "one XXthree")
        #expect(merge("one two three", mine: "one to three", theirs: "one three") == "one three")
    }

    @Test func aDeletionOfWholeLinesTakesTheTypingToALineStart() {
        let base = "Line 1\nLine 2\nLine 3\nLine 4\n"
        // A diff sees "2\nLine 3\nLine " deleted: the typing lands before "Line 4", not inside it.
        #expect(
            merge(base, mine: "Line 1\nLine 2\nLinXe 3\nLine 4\n", theirs: "Line 1\nLine 4\n")
                == "Line 1\nXLine 4\n")
    }

    @Test func aCharacterTheTextsSharePartOfIsKeptWhole() {
        // "é" and "è" share their first byte: what was typed is the whole "è".
        #expect(merge("aéb", mine: "aèb", theirs: "ab") == "aèb")
        #expect(merge("a日本b", mine: "a日木b", theirs: "ab") == "a木b")
    }

    @Test func anythingButTheirDeletionHoldingMyChangeIsRefused() {
        // They replaced the text, not deleted it.
        #expect(merge("one two three", mine: "one twXo three", theirs: "one 2 three") == nil)
        // My change reaches outside their deletion.
        #expect(merge("aaa bbb ccc", mine: "aaa bbXcc", theirs: "aaa ccc") == nil)
        // Nothing of mine, or nothing of theirs.
        #expect(merge("same", mine: "same", theirs: "") == nil)
        #expect(merge("same", mine: "sXame", theirs: "same") == nil)
    }
}
