import SQLiteDatabase

/// Texts as one splice of another: where two texts differ, and one change merged into a text
/// someone else changed since. The engine merges an undo of a text column this way
/// (`UndoEngine.mergeText(ofColumns:in:)`); an editor can merge its keystrokes the same way.
public enum TextSplice {
    /// The differing bytes of `old` and `new` (their UTF-8), between their common start and
    /// common end, or nil when they are equal.
    ///
    /// The common start and end never overlap, so the two ranges are as small as one edit that
    /// turns `old` into `new`. The bounds may fall inside a grapheme (or a scalar) where the
    /// texts share part of one.
    public static func changedBytes(
        from old: String, to new: String
    ) -> (old: Range<Int>, new: Range<Int>)? {
        changedBytes(from: old, to: new, endFirst: false)
    }

    /// As `changedBytes(from:to:)`; with `endFirst`, the common end is taken first. Where a
    /// change is ambiguous (" one" or "one " out of "3 one two"), the two give its two places.
    private static func changedBytes(
        from old: String, to new: String, endFirst: Bool
    ) -> (old: Range<Int>, new: Range<Int>)? {
        var old = old
        var new = new
        return old.withUTF8 { oldBytes in
            new.withUTF8 { newBytes in changedBytes(from: oldBytes, to: newBytes, endFirst) }
        }
    }

    private static func changedBytes(
        from old: UnsafeBufferPointer<UInt8>, to new: UnsafeBufferPointer<UInt8>,
        _ endFirst: Bool
    ) -> (old: Range<Int>, new: Range<Int>)? {
        let (prefix, suffix) = CommonPrefixAndSuffix.of(old, new, endFirst: endFirst)
        if old.count == new.count, prefix == old.count { return nil }
        return (prefix..<(old.count - suffix), prefix..<(new.count - suffix))
    }

    /// `mine` (one splice of `base`) and `theirs` (any edits of `base`) together; nil when they
    /// changed the same bytes.
    ///
    /// Splices in different places both apply, and so do two insertions at one point (theirs
    /// first, as it was written first). Where `theirs` differs from `base` on both sides of my
    /// splice (edits in several places), mine applies where the bytes it replaced still stand
    /// between the bytes that were around them (`SpliceAnchor`), nearest where they were; where
    /// theirs wrote right against both ends of mine, where its new bytes hold the bytes mine
    /// replaced once.
    public static func merge(base: String, mine: String, theirs: String) -> String? {
        // Each change in both of its places, where it has two: one may miss the other's.
        for myEndFirst in [false, true] {
            for theirEndFirst in [false, true] {
                guard let my = changedBytes(from: base, to: mine, endFirst: myEndFirst) else {
                    return theirs
                }
                guard let their = changedBytes(from: base, to: theirs, endFirst: theirEndFirst)
                else { return mine }
                if let merged = merge(my, mine, into: their, theirs) { return merged }
            }
        }
        guard let my = changedBytes(from: base, to: mine, endFirst: false) else { return theirs }
        let baseBytes = Array(base.utf8)
        // The context: enough bytes around the splice to tell its place from others'.
        let context = 64
        let theirBytes = Array(theirs.utf8)
        let replacement = Array(mine.utf8)[my.new]
        let merged =
            SpliceAnchor.replace(
                own: baseBytes[my.old],
                before: baseBytes[max(0, my.old.lowerBound - context)..<my.old.lowerBound],
                after: baseBytes[
                    my.old.upperBound..<min(baseBytes.count, my.old.upperBound + context)],
                atStart: my.old.lowerBound == 0, atEnd: my.old.upperBound == baseBytes.count,
                near: my.old.lowerBound, with: replacement, in: theirBytes)
            ?? replacingOwnBytesWrittenAround(
                my.old, of: baseBytes, with: replacement, in: theirBytes)
        return merged.map { String(decoding: $0, as: UTF8.self) }
    }

    /// `theirs` with the bytes `own` of `base` replaced, where others wrote right beside them
    /// on both sides (typing just before and just after a word of mine): their one change of
    /// `base` covers `own`, and its new bytes hold `own` once. Nil when `own` is empty (an
    /// insertion has no bytes of its own to find), or stands in their new bytes twice or not
    /// at all.
    private static func replacingOwnBytesWrittenAround(
        _ own: Range<Int>, of base: [UInt8], with replacement: ArraySlice<UInt8>,
        in theirs: [UInt8]
    ) -> [UInt8]? {
        guard !own.isEmpty,
            let their = base.withUnsafeBufferPointer({ base in
                theirs.withUnsafeBufferPointer { changedBytes(from: base, to: $0, false) }
            }),
            their.old.lowerBound <= own.lowerBound, own.upperBound <= their.old.upperBound
        else { return nil }
        let ownBytes = base[own]
        let written = theirs[their.new]
        guard ownBytes.count <= written.count else { return nil }
        let places = (written.startIndex...(written.endIndex - ownBytes.count)).filter {
            written[$0..<($0 + ownBytes.count)].elementsEqual(ownBytes)
        }
        guard places.count == 1, let place = places.first else { return nil }
        return Array(theirs[..<place] + replacement + theirs[(place + ownBytes.count)...])
    }

    /// My splice (`my` ranges, bytes from `mine`) applied to `theirs`, nil when it overlaps
    /// theirs.
    private static func merge(
        _ my: (old: Range<Int>, new: Range<Int>), _ mine: String,
        into their: (old: Range<Int>, new: Range<Int>), _ theirs: String
    ) -> String? {
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
        var merged = Array(theirs.utf8)
        merged.replaceSubrange(replaced, with: Array(mine.utf8)[my.new])
        return String(decoding: merged, as: UTF8.self)
    }
}
