/// The longest common start and end of two byte strings, compared eight bytes at a time: what
/// an edit changed in a text (a splice, a packed value, a chunk of a body), found at memory
/// speed in texts of megabytes.
public enum CommonPrefixAndSuffix {
    /// The length of the longest common start of `a` and `b`, then of the longest common end of
    /// what is left (with `endFirst`, the end first, then the start): they never overlap.
    public static func of(
        _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, endFirst: Bool = false
    ) -> (prefix: Int, suffix: Int) {
        let shorter = min(a.count, b.count)
        if endFirst {
            let suffix = common(a, b, upTo: shorter, fromEnd: true)
            return (common(a, b, upTo: shorter - suffix, fromEnd: false), suffix)
        }
        let prefix = common(a, b, upTo: shorter, fromEnd: false)
        return (prefix, common(a, b, upTo: shorter - prefix, fromEnd: true))
    }

    /// As `of(_:_:endFirst:)`, for arrays.
    public static func of(_ a: [UInt8], _ b: [UInt8]) -> (prefix: Int, suffix: Int) {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in of(a, b) } }
    }

    /// How many bytes `a` and `b` share from their start, or with `fromEnd` from their end, up to
    /// `limit`: eight at a time, then one at a time.
    private static func common(
        _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, upTo limit: Int,
        fromEnd: Bool
    ) -> Int {
        guard limit > 0, let startA = a.baseAddress, let startB = b.baseAddress else { return 0 }
        let (rawA, rawB) = (UnsafeRawPointer(startA), UnsafeRawPointer(startB))
        // Where the `width` bytes after the first `count` shared ones are, in each.
        func offsets(_ count: Int, _ width: Int) -> (a: Int, b: Int) {
            fromEnd ? (a.count - count - width, b.count - count - width) : (count, count)
        }
        var count = 0
        while count + 8 <= limit {
            let at = offsets(count, 8)
            guard
                rawA.loadUnaligned(fromByteOffset: at.a, as: UInt64.self)
                    == rawB.loadUnaligned(fromByteOffset: at.b, as: UInt64.self)
            else { break }
            count += 8
        }
        while count < limit {
            let at = offsets(count, 1)
            guard a[at.a] == b[at.b] else { break }
            count += 1
        }
        return count
    }
}
