/// Makes every line break a single "\n", as typed and pasted text may use "\r\n" or "\r".
enum NewlineNormalization {
    /// `text` with each "\r\n" and each lone "\r" replaced by "\n".
    ///
    /// One pass over the bytes, so a paste of megabytes costs little; text
    /// without "\r" is returned as it is.
    static func normalized(_ text: String) -> String {
        var text = text
        let rewritten: String? = text.withUTF8 { bytes in
            let carriageReturn = UInt8(ascii: "\r")
            let newline = UInt8(ascii: "\n")
            guard bytes.contains(carriageReturn) else { return nil }
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count)
            var previousWasCarriageReturn = false
            for byte in bytes {
                if byte == newline, previousWasCarriageReturn {
                    previousWasCarriageReturn = false
                    continue
                }
                previousWasCarriageReturn = byte == carriageReturn
                result.append(previousWasCarriageReturn ? newline : byte)
            }
            return String(decoding: result, as: UTF8.self)
        }
        return rewritten ?? text
    }
}
