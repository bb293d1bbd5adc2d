/// Text with the characters a terminal acts on made visible, for output that people read in a
/// terminal (`notes export --format markdown`): a note must not be able to set the window's
/// title, write the clipboard (OSC 52) or clear the screen of whoever prints it.
enum VisibleControls {
    /// `text` with each C0 control but tab and line feed, DEL and each C1 control replaced:
    /// `^[` for ESC and the like (as shells show them), `^?` for DEL, `<U+009B>` for a C1
    /// control. A carriage return before a line feed is dropped (a Windows line end).
    static func visible(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        let input = Array(text.unicodeScalars)
        for (index, scalar) in input.enumerated() {
            switch scalar.value {
            case 0x09, 0x0A:
                scalars.append(scalar)
            case 0x0D where index + 1 < input.count && input[index + 1] == "\n":
                continue
            case 0..<0x20:
                scalars.append("^")
                scalars.append(Unicode.Scalar(UInt8(scalar.value + 0x40)))
            case 0x7F:
                scalars.append(contentsOf: "^?".unicodeScalars)
            case 0x80..<0xA0:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                scalars.append(contentsOf: "<U+00\(hex)>".unicodeScalars)
            default:
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }
}
