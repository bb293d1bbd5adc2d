/// One edit merged into a text that someone else changed since it was read: the way the editor
/// never writes over a change it has not seen (another notes window, another program).
///
/// Both changes are one splice of the text both started from (`base`), found by their common
/// start and end (`TextDifference`). Splices in different places both apply, and so do two
/// insertions at one point (theirs first, as it was written first); splices that change the
/// same bytes do not merge.
enum TextMerge {
    /// `mine` and `theirs` together, each a change of `base`; nil when they changed the same
    /// bytes.
    static func merge(base: String, mine: String, theirs: String) -> String? {
        guard let my = TextDifference.changedBytes(from: base, to: mine) else { return theirs }
        guard let their = TextDifference.changedBytes(from: base, to: theirs) else { return mine }
        let myBytes = Array(mine.utf8)[my.new]
        let theirBytes = Array(theirs.utf8)
        let replaced: Range<Int>
        if my.old.upperBound < their.old.lowerBound
            || my.old.upperBound == their.old.lowerBound
                && !(my.old.isEmpty && their.old.isEmpty)
        {
            // Before theirs: at the same place in their text.
            replaced = my.old
        } else if my.old.lowerBound >= their.old.upperBound {
            // After theirs (two insertions at one point: mine second): moved by what their
            // change added or took away.
            let shift = their.new.count - their.old.count
            replaced = (my.old.lowerBound + shift)..<(my.old.upperBound + shift)
        } else {
            return nil
        }
        var merged = theirBytes
        merged.replaceSubrange(replaced, with: myBytes)
        return String(decoding: merged, as: UTF8.self)
    }
}
