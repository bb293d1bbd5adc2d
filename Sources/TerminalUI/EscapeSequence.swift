/// The meaning of the escape sequences terminals send for keys and the mouse.
///
/// Terminals agree on these far more than terminfo suggests: xterm, VTE,
/// kitty, rxvt, tmux and screen all send the VT220/xterm forms below, with
/// the SS3 forms for arrows in application cursor mode. Of the modifiers xterm puts on keys
/// (`ESC [ 1 ; 5 A` for Ctrl-Up), Shift is kept on every named key, and Ctrl on Home, End,
/// Left, Right and Delete; of rxvt's forms, Ctrl on those (`ESC O d`, `ESC [ 3 ^`) and Shift on
/// the arrows (`ESC [ c`). Alt and the rest are dropped, as are rxvt's Shift on the other keys
/// (`ESC [ 5 $`) and the F13-F20 some terminals send for Shift-F1..F8. (`ESC [ 1 ; 2 R` is
/// also the shape of a cursor position report, which notes never asks for.)
enum EscapeSequence {
    /// What a complete control sequence asks the decoder to do.
    enum Action: Equatable {
        /// Report this event.
        case event(InputEvent)
        /// Bracketed paste starts: collect text until ESC [ 201 ~.
        case beginPaste
        /// Nothing: a sequence the app has no use for (focus reports, modified keys we do not know).
        case ignore
    }

    /// The largest parameter text kept for one CSI sequence; longer ones are garbage.
    static let maximumParameterLength = 64

    /// The end of a bracketed paste.
    static let pasteEnd: [Unicode.Scalar] = ["\u{1B}", "[", "2", "0", "1", "~"]

    /// Decodes `ESC [ parameters final`.
    ///
    /// - Parameters:
    ///   - parameters: The parameter and intermediate characters (0x20-0x3F).
    ///   - final: The final character (0x40-0x7E).
    static func csi(parameters: [Unicode.Scalar], final: Unicode.Scalar) -> Action {
        if parameters.first == "<" {
            guard final == "M" || final == "m" else { return .ignore }
            guard let mouse = sgrMouse(numbers(in: parameters.dropFirst()), release: final == "m")
            else { return .ignore }
            return .event(.mouse(mouse))
        }
        // Private sequences (`ESC [ ? 1 ; 2 c`, a device's attributes) are no keys.
        if let first = parameters.first, ["?", ">", "="].contains(first) { return .ignore }
        let values = numbers(in: parameters[...])
        // xterm's modifier parameter is 1 plus a bit mask: Shift 1, Alt 2, Ctrl 4.
        let modifiers = values.count > 1 ? max(0, (values[1] ?? 1) - 1) : 0
        let control = modifiers & 4 != 0
        let key: Key
        switch final {
        case "A": key = .up
        case "B": key = .down
        case "C": key = control ? .controlRight : .right
        case "D": key = control ? .controlLeft : .left
        case "H": key = control ? .controlHome : .home
        case "F": key = control ? .controlEnd : .end
        case "Z": return .event(.key(.backTab))
        case "P": key = .function(1)
        case "Q": key = .function(2)
        case "R": key = .function(3)
        case "S": key = .function(4)
        case "~":
            guard let tildeKey = tilde((values.first ?? nil) ?? 0, control: control) else {
                return (values.first ?? nil) == 200 ? .beginPaste : .ignore
            }
            key = tildeKey
        // rxvt marks Ctrl on the editing keys by the final character, and Shift on the arrows.
        case "^":
            return tilde((values.first ?? nil) ?? 0, control: true).map { .event(.key($0)) }
                ?? .ignore
        case "a": return .event(.key(.shift(.up)))
        case "b": return .event(.key(.shift(.down)))
        case "c": return .event(.key(.shift(.right)))
        case "d": return .event(.key(.shift(.left)))
        default: return .ignore
        }
        return .event(.key(modifiers & 1 != 0 ? .shift(key) : key))
    }

    /// Decodes `ESC O final` (SS3), the form of arrows and F1-F4 in application mode.
    ///
    /// - Returns: The key, or nil when `final` makes no known sequence.
    static func ss3(final: Unicode.Scalar) -> Key? {
        switch final {
        case "A": .up
        case "B": .down
        case "C": .right
        case "D": .left
        // rxvt's Ctrl-arrows: Ctrl is dropped from Up and Down, as from xterm's.
        case "a": .up
        case "b": .down
        case "c": .controlRight
        case "d": .controlLeft
        case "H": .home
        case "F": .end
        case "M": .enter
        case "P": .function(1)
        case "Q": .function(2)
        case "R": .function(3)
        case "S": .function(4)
        default: nil
        }
    }

    /// Decodes `ESC [ number ~`: editing keys and F5 and up (nil: another number, such as the
    /// paste start, 200).
    private static func tilde(_ number: Int, control: Bool) -> Key? {
        let key: Key
        switch number {
        case 1, 7: key = control ? .controlHome : .home
        case 2: key = .insert
        case 3: key = control ? .controlDelete : .delete
        case 4, 8: key = control ? .controlEnd : .end
        case 5: key = .pageUp
        case 6: key = .pageDown
        case 11...15: key = .function(number - 10)
        case 17...21: key = .function(number - 11)
        case 23...26: key = .function(number - 12)
        case 28, 29: key = .function(number - 13)
        case 31...34: key = .function(number - 14)
        default: return nil
        }
        return key
    }

    /// Decodes an SGR mouse report `ESC [ < button ; column ; row M` (or `m` on release).
    ///
    /// The button number carries the button in its low 2 bits, modifiers in
    /// 4, 8 and 16, motion in 32 and the wheel in 64. Columns and rows count
    /// from 1.
    private static func sgrMouse(_ values: [Int?], release: Bool) -> MouseEvent? {
        guard values.count == 3, let code = values[0], let column = values[1], let row = values[2]
        else { return nil }
        let position = Point(x: max(0, column - 1), y: max(0, row - 1))
        let button = code & 3
        let kind: MouseEvent.Kind
        if code & 64 != 0 {
            guard !release else { return nil }
            switch button {
            case 0: kind = .wheelUp
            case 1: kind = .wheelDown
            default: return nil  // horizontal wheel
            }
        } else if release {
            kind = .release
        } else if code & 32 != 0 {
            guard button != 3 else { return nil }  // motion with no button held
            kind = .drag
        } else {
            switch button {
            case 0: kind = .press(.left)
            case 1: kind = .press(.middle)
            case 2: kind = .press(.right)
            default: return nil
            }
        }
        return MouseEvent(kind: kind, position: position)
    }

    /// The ";"-separated decimal numbers of a parameter text; nil for an empty or odd one.
    private static func numbers(in parameters: ArraySlice<Unicode.Scalar>) -> [Int?] {
        var values: [Int?] = []
        var current: Int? = nil
        var valid = true
        for scalar in parameters {
            if scalar == ";" {
                values.append(valid ? current : nil)
                current = nil
                valid = true
            } else if scalar.value >= 0x30, scalar.value <= 0x39 {
                // Capped: a terminal never sends more, garbage must not overflow.
                current = min((current ?? 0) * 10 + Int(scalar.value - 0x30), 1_000_000)
            } else {
                valid = false
            }
        }
        values.append(valid ? current : nil)
        return values
    }
}
