import SQLiteUndo

/// Typing at a place that someone else deleted since the editor read the text: another window
/// or program deleted the lines around the cursor (or a piece of the body's storage). The
/// typing is not lost: what it typed goes where their deletion was.
enum TypingInDeletedText {
    /// What the status line says when `merge` kept typing.
    static let note = "Typing kept: the text around it was deleted elsewhere"

    /// `theirs` with what `mine` typed put where their deletion was, when `theirs` is `base`
    /// with one piece deleted that holds all that `mine` replaced; nil otherwise (for the
    /// caller to refuse the edit).
    static func merge(base: String, mine: String, theirs: String) -> String? {
        guard var my = TextSplice.changedBytes(from: base, to: mine),
            let their = TextSplice.changedBytes(from: base, to: theirs), their.new.isEmpty
        else { return nil }
        let (baseBytes, myBytes, theirBytes) = (
            Array(base.utf8), Array(mine.utf8), Array(theirs.utf8)
        )
        // My change, widened to whole characters: its ends may fall inside one the texts share.
        while my.old.lowerBound > 0, my.old.lowerBound < baseBytes.count,
            isContinuation(baseBytes[my.old.lowerBound])
        {
            my = (
                my.old.lowerBound - 1..<my.old.upperBound, my.new.lowerBound - 1..<my.new.upperBound
            )
        }
        while my.old.upperBound < baseBytes.count, isContinuation(baseBytes[my.old.upperBound]) {
            my = (
                my.old.lowerBound..<my.old.upperBound + 1, my.new.lowerBound..<my.new.upperBound + 1
            )
        }
        // Their deletion, where it holds my change: at a line's or a word's start if it can be.
        guard
            let point = deletionPoint(their.old, holding: my.old, in: baseBytes),
            point == theirBytes.count || !isContinuation(theirBytes[point])
        else { return nil }
        let merged = theirBytes[..<point] + myBytes[my.new] + theirBytes[point...]
        return String(decoding: merged, as: UTF8.self)
    }

    /// Where in `base` the deletion of `deleted` starts, once slid along the text to a place
    /// that holds `changed` and starts a line where one does, else a word: deleting one of two
    /// equal lines is also deleting the end of one and the start of the other ("b\na" of
    /// "ab\nab\n"), and a diff finds the first. nil when no place holds `changed`.
    private static func deletionPoint(
        _ deleted: Range<Int>, holding changed: Range<Int>, in base: [UInt8]
    ) -> Int? {
        var start = deleted.lowerBound
        let length = deleted.count
        while start > 0, base[start - 1] == base[start - 1 + length] { start -= 1 }
        // The first place that holds `changed`, then the first at a word's start.
        var holding: (any: Int?, word: Int?)
        while true {
            if start <= changed.lowerBound, changed.upperBound <= start + length {
                let before = start == 0 ? UInt8(ascii: "\n") : base[start - 1]
                if before == UInt8(ascii: "\n") { return start }
                holding.any = holding.any ?? start
                if before == UInt8(ascii: " ") || before == UInt8(ascii: "\t") {
                    holding.word = holding.word ?? start
                }
            }
            guard start + length < base.count, base[start] == base[start + length] else { break }
            start += 1
        }
        return holding.word ?? holding.any
    }

    /// Whether `byte` continues a character (10xxxxxx) rather than starting one.
    private static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
}
