/// Decodes UTF-8 that arrives in arbitrary pieces, as terminal reads do.
///
/// A character split across two reads decodes once both halves are in.
/// Malformed input (a stray continuation byte, an overlong form, a
/// surrogate, a sequence cut short) becomes U+FFFD, one per bad sequence.
struct UTF8Stream {
    private var value: UInt32 = 0
    private var continuationsLeft = 0
    private var smallestValid: UInt32 = 0

    /// Decodes `bytes`, appending the complete scalars to `scalars`.
    mutating func decode(_ bytes: UnsafeRawBufferPointer, into scalars: inout [Unicode.Scalar]) {
        for byte in bytes {
            decode(byte, into: &scalars)
        }
    }

    /// Decodes one byte, appending a scalar when it completes one.
    mutating func decode(_ byte: UInt8, into scalars: inout [Unicode.Scalar]) {
        if continuationsLeft > 0 {
            if byte & 0xC0 == 0x80 {
                value = value << 6 | UInt32(byte & 0x3F)
                continuationsLeft -= 1
                if continuationsLeft == 0 {
                    let scalar = value >= smallestValid ? Unicode.Scalar(value) : nil
                    scalars.append(scalar ?? "\u{FFFD}")
                }
                return
            }
            // Cut short: the sequence is bad, and this byte starts afresh.
            continuationsLeft = 0
            scalars.append("\u{FFFD}")
        }
        switch byte {
        case 0x00...0x7F:
            scalars.append(Unicode.Scalar(byte))
        case 0xC2...0xDF:
            start(UInt32(byte & 0x1F), continuations: 1, smallestValid: 0x80)
        case 0xE0...0xEF:
            start(UInt32(byte & 0x0F), continuations: 2, smallestValid: 0x800)
        case 0xF0...0xF4:
            start(UInt32(byte & 0x07), continuations: 3, smallestValid: 0x1_0000)
        default:
            scalars.append("\u{FFFD}")
        }
    }

    private mutating func start(_ bits: UInt32, continuations: Int, smallestValid: UInt32) {
        value = bits
        continuationsLeft = continuations
        self.smallestValid = smallestValid
    }
}
