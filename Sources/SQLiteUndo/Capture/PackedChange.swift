import SQLiteDatabase

/// A large text or blob value's change kept as the edit instead of as two whole copies: the
/// bytes that differ on each side (between the common start and the common end), the lengths
/// and hashes of that common start and end, and a fingerprint of each whole value.
///
/// Either side is rebuilt exactly from the other: the common start and end come from the value
/// in the row, checked by its fingerprint. A value someone changed since matches neither, so an
/// undo keeps it, as it keeps any value changed since; a text may still take the step's own
/// edit back where the common start or end is intact (`merged(into:fromNew:)`).
struct PackedChange: Equatable {
    /// A text or blob value as its exact bytes (text in the database's UTF-8, valid or not).
    struct Value: Equatable {
        enum Storage: UInt8 {
            case text = 3
            case blob = 4
        }
        var storage: Storage
        var bytes: [UInt8]
    }

    /// A value's storage class, length and hash: equal fingerprints mean equal values (but for
    /// a 64-bit hash collision). Kept in the log cell where the value would be.
    struct Fingerprint: Equatable {
        var storage: Value.Storage
        var length: Int
        var hash: UInt64

        init(of value: Value) {
            storage = value.storage
            length = value.bytes.count
            hash = ByteHash.hash(value.bytes[...])
        }

        /// 17 bytes: the storage class, then the length and the hash, little-endian.
        var encoded: [UInt8] {
            [storage.rawValue] + Self.bytes(of: UInt64(length)) + Self.bytes(of: hash)
        }

        init?(encoded: [UInt8]) {
            guard encoded.count == 17, let storage = Value.Storage(rawValue: encoded[0]) else {
                return nil
            }
            self.storage = storage
            length = Int(Self.integer(encoded[1..<9]))
            hash = Self.integer(encoded[9..<17])
        }

        static func bytes(of integer: UInt64) -> [UInt8] {
            (0..<8).map { UInt8(truncatingIfNeeded: integer >> (8 * UInt64($0))) }
        }

        static func integer(_ bytes: ArraySlice<UInt8>) -> UInt64 {
            bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
    }

    var old: Fingerprint
    var new: Fingerprint
    var prefixLength: Int
    var suffixLength: Int
    var prefixHash: UInt64
    var suffixHash: UInt64
    var oldMiddle: [UInt8]
    var newMiddle: [UInt8]

    /// Values whose change is packed: together at least this many bytes.
    static let threshold = 512

    /// The common bytes each middle keeps on each side of the edit (fewer at the value's ends):
    /// enough to find its place again among others' edits, few enough to keep a key's history
    /// small.
    static let context = 12

    /// The change from `old` to `new` packed, or nil when that would not save half its size
    /// (small values, or values that differ almost everywhere).
    init?(old: Value, new: Value) {
        guard old.bytes.count + new.bytes.count >= Self.threshold else { return nil }
        var (prefix, suffix) = CommonPrefixAndSuffix.of(old.bytes, new.bytes)
        let middles = old.bytes.count + new.bytes.count - 2 * (prefix + suffix)
        guard middles + 100 < (old.bytes.count + new.bytes.count) / 2 else { return nil }
        // The middles keep some of the common bytes around the edit: its context, which finds
        // it again in a text someone changed on both sides of it since (`merged(into:fromNew:)`).
        prefix -= min(prefix, Self.context)
        suffix -= min(suffix, Self.context)
        self.old = Fingerprint(of: old)
        self.new = Fingerprint(of: new)
        prefixLength = prefix
        suffixLength = suffix
        prefixHash = ByteHash.hash(new.bytes[..<prefix])
        suffixHash = ByteHash.hash(new.bytes[(new.bytes.count - suffix)...])
        oldMiddle = Array(old.bytes[prefix..<(old.bytes.count - suffix)])
        newMiddle = Array(new.bytes[prefix..<(new.bytes.count - suffix)])
    }

    // MARK: Rebuilding a side

    /// The value on the other side of the change when `current` is exactly the value on one
    /// side (`isNew`: the value after the change); nil when it is not.
    func other(given current: Value, isNew: Bool) -> Value? {
        guard Fingerprint(of: current) == (isNew ? new : old),
            current.bytes.count >= prefixLength + suffixLength
        else { return nil }
        let bytes =
            current.bytes[..<prefixLength] + (isNew ? oldMiddle : newMiddle)
            + current.bytes[(current.bytes.count - suffixLength)...]
        return Value(storage: isNew ? old.storage : new.storage, bytes: Array(bytes))
    }

    /// `current` (a text someone changed since it was the value on one side) with this change
    /// taken back (from the new side, `fromNew`) or applied again: where `current` still holds
    /// that side's own bytes with the common start intact before them (their edit came after)
    /// or the common end intact after them (it came before), or, changed on both sides, where
    /// its bytes stand between their context (`SpliceAnchor`). Nil when none holds: their edit
    /// touched the change's own bytes.
    func merged(into current: Value, fromNew: Bool) -> Value? {
        let expected = fromNew ? newMiddle : oldMiddle
        let replacement = fromNew ? oldMiddle : newMiddle
        let bytes = current.bytes
        let afterPrefix = prefixLength + expected.count
        if bytes.count >= afterPrefix,
            bytes[prefixLength..<afterPrefix].elementsEqual(expected),
            ByteHash.hash(bytes[..<prefixLength]) == prefixHash
        {
            let merged = bytes[..<prefixLength] + replacement + bytes[afterPrefix...]
            return Value(storage: current.storage, bytes: Array(merged))
        }
        let suffixStart = bytes.count - suffixLength
        if suffixStart - expected.count >= 0,
            bytes[(suffixStart - expected.count)..<suffixStart].elementsEqual(expected),
            ByteHash.hash(bytes[suffixStart...]) == suffixHash
        {
            let merged =
                bytes[..<(suffixStart - expected.count)] + replacement + bytes[suffixStart...]
            return Value(storage: current.storage, bytes: Array(merged))
        }
        // Changed on both sides: the middles' common bytes are the edit's context.
        let (before, after) = CommonPrefixAndSuffix.of(expected, replacement)
        return SpliceAnchor.replace(
            own: expected[before..<(expected.count - after)], before: expected[..<before],
            after: expected[(expected.count - after)...], atStart: prefixLength == 0,
            atEnd: suffixLength == 0, near: prefixLength + before,
            with: replacement[before..<(replacement.count - after)], in: bytes
        ).map { Value(storage: current.storage, bytes: $0) }
    }

    // MARK: Kept in the log

    /// The splice as the log's `splice` cell holds it: the common start's and end's lengths and
    /// hashes, the middles' lengths, then the two middles.
    var encodedSplice: [UInt8] {
        var bytes: [UInt8] = []
        for integer in [
            UInt64(prefixLength), UInt64(suffixLength), prefixHash, suffixHash,
            UInt64(oldMiddle.count),
        ] {
            bytes += Fingerprint.bytes(of: integer)
        }
        return bytes + oldMiddle + newMiddle
    }

    /// Reads a packed change back from its log cells; nil when they are not one.
    init?(old: [UInt8], new: [UInt8], splice: [UInt8]) {
        guard let old = Fingerprint(encoded: old), let new = Fingerprint(encoded: new),
            splice.count >= 40
        else { return nil }
        let integers = (0..<5).map { Fingerprint.integer(splice[(8 * $0)..<(8 * $0 + 8)]) }
        let oldCount = Int(integers[4])
        guard splice.count >= 40 + oldCount else { return nil }
        self.old = old
        self.new = new
        prefixLength = Int(integers[0])
        suffixLength = Int(integers[1])
        prefixHash = integers[2]
        suffixHash = integers[3]
        oldMiddle = Array(splice[40..<(40 + oldCount)])
        newMiddle = Array(splice[(40 + oldCount)...])
    }
}

/// A 64-bit hash of bytes, eight at a time (a multiply-rotate mix of each word, then a final
/// avalanche with the length): what a packed change checks a value by.
enum ByteHash {
    static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            let words = raw.count / 8
            for index in 0..<words {
                state = mix(state, raw.loadUnaligned(fromByteOffset: 8 * index, as: UInt64.self))
            }
            var tail: UInt64 = 0
            for index in (8 * words)..<raw.count {
                tail |= UInt64(raw[index]) << (8 * UInt64(index - 8 * words))
            }
            state = mix(state, tail)
            return finish(state ^ UInt64(raw.count))
        }
    }

    private static func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
        var word = word &* 0x87C3_7B91_1142_53D5
        word = word << 31 | word >> 33
        word &*= 0x4CF5_AD43_2745_937F
        let mixed = state ^ word
        return (mixed << 27 | mixed >> 37) &* 5 &+ 0x52DC_E729
    }

    private static func finish(_ state: UInt64) -> UInt64 {
        var state = state
        state ^= state >> 33
        state &*= 0xFF51_AFD7_ED55_8CCD
        state ^= state >> 33
        state &*= 0xC4CE_B9FE_1A85_EC53
        return state ^ state >> 33
    }
}
