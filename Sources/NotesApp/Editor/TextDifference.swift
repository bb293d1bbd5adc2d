/// Where two texts differ: the bytes between their common start and common end.
enum TextDifference {
    /// The differing bytes of `old` and `new`, or nil when they are equal.
    ///
    /// The common start and end never overlap, so the two ranges are as
    /// small as one edit that turns `old` into `new`. The bounds may fall
    /// inside a grapheme (or a scalar) where the texts share part of one.
    static func changedBytes(
        from old: String, to new: String
    ) -> (old: Range<Int>, new: Range<Int>)? {
        var old = old
        var new = new
        return old.withUTF8 { oldBytes in
            new.withUTF8 { newBytes in changedBytes(from: oldBytes, to: newBytes) }
        }
    }

    private static func changedBytes(
        from old: UnsafeBufferPointer<UInt8>, to new: UnsafeBufferPointer<UInt8>
    ) -> (old: Range<Int>, new: Range<Int>)? {
        let shorter = min(old.count, new.count)
        var prefix = 0
        while prefix < shorter, old[prefix] == new[prefix] {
            prefix += 1
        }
        if prefix == old.count, prefix == new.count { return nil }
        var suffix = 0
        while suffix < shorter - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        {
            suffix += 1
        }
        return (prefix..<(old.count - suffix), prefix..<(new.count - suffix))
    }
}
