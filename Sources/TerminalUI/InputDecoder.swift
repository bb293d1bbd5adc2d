/// One unit of terminal input, as a backend reads it.
public enum RawInput: Hashable, Sendable {
    /// One Unicode scalar the terminal sent (already decoded from UTF-8).
    case scalar(Unicode.Scalar)
    /// Nothing arrived for `InputDecoder.pendingTimeout`.
    case timeout
}

/// Turns raw terminal input into key, paste and mouse events.
///
/// Feed it every unit the terminal sends, in order; it returns the events
/// that are complete. It is a plain value with no I/O, so every sequence is
/// tested without a terminal.
///
/// - ESC followed by a printable character within the ESC delay is Alt with
///   that character; ESC followed by nothing (a `.timeout`) is Escape.
/// - Bracketed paste (`ESC [ 200 ~` … `ESC [ 201 ~`) is one `.paste` event
///   with the whole text, CR and CR LF turned into "\n". Collecting it takes
///   time linear in its length.
/// - SGR mouse reports, and the CSI and SS3 sequences of the named keys
///   (xterm, VT220, rxvt, tmux, screen and the Linux console), are decoded.
/// - Control bytes are Ctrl keys, except Tab, Enter (CR or LF) and Backspace
///   (DEL, or BS unless BS is read as Ctrl-Backspace).
public struct InputDecoder: Sendable {
    /// How long an ESC waits for the rest of its sequence before it counts as Escape.
    public var escapeDelay: Duration
    /// How long a paste waits for more text before it ends without its end marker.
    public var pasteIdleTimeout: Duration
    /// Whether ^H (BS) is Ctrl-Backspace rather than Backspace: true for a terminal whose
    /// Backspace key sends ^? (DEL), as most do, and which then send ^H for Ctrl-Backspace.
    public var readsControlHAsControlBackspace: Bool

    private enum State {
        case ground
        case escape
        case controlSequence
        case singleShift
        case linuxFunctionKey
        case paste
    }

    private var state = State.ground
    // Kept outside `State` so that appending never copies (an associated
    // value would be shared with the enum while mutated).
    private var parameters: [Unicode.Scalar] = []
    private var pasted = String.UnicodeScalarView()
    private var pasteEndMatched = 0
    private var pastedCarriageReturn = false

    /// Creates a decoder.
    ///
    /// - Parameters:
    ///   - escapeDelay: The time an ESC waits for the rest of its sequence (curses' ESCDELAY).
    ///   - pasteIdleTimeout: The time a paste waits for more text before it ends anyway,
    ///     so a lost end marker cannot swallow all further typing.
    ///   - readsControlHAsControlBackspace: Whether ^H is Ctrl-Backspace (the terminal's
    ///     Backspace sends ^?) rather than Backspace.
    public init(
        escapeDelay: Duration = .milliseconds(25), pasteIdleTimeout: Duration = .seconds(2),
        readsControlHAsControlBackspace: Bool = false
    ) {
        self.escapeDelay = escapeDelay
        self.pasteIdleTimeout = pasteIdleTimeout
        self.readsControlHAsControlBackspace = readsControlHAsControlBackspace
    }

    /// How long to wait for more input before feeding `.timeout`, or nil when
    /// no sequence is waiting (then wait as long as you like).
    public var pendingTimeout: Duration? {
        switch state {
        case .ground: nil
        case .escape, .controlSequence, .singleShift, .linuxFunctionKey: escapeDelay
        case .paste: pasteIdleTimeout
        }
    }

    /// Feeds one unit of input.
    ///
    /// - Returns: The events this unit completes, in order (often none).
    public mutating func feed(_ input: RawInput) -> [InputEvent] {
        var events: [InputEvent] = []
        feed(input, into: &events)
        return events
    }

    /// Feeds units of input in order.
    ///
    /// - Returns: The events they complete, in order.
    public mutating func feed(contentsOf inputs: some Sequence<RawInput>) -> [InputEvent] {
        var events: [InputEvent] = []
        for input in inputs {
            feed(input, into: &events)
        }
        return events
    }

    private mutating func feed(_ input: RawInput, into events: inout [InputEvent]) {
        switch state {
        case .ground: ground(input, into: &events)
        case .escape: afterEscape(input, into: &events)
        case .controlSequence: inControlSequence(input, into: &events)
        case .singleShift: afterSingleShift(input, into: &events)
        case .linuxFunctionKey: afterLinuxFunctionKey(input, into: &events)
        case .paste: inPaste(input, into: &events)
        }
    }

    private mutating func ground(_ input: RawInput, into events: inout [InputEvent]) {
        switch input {
        case .scalar("\u{1B}"): state = .escape
        case .scalar("\u{08}") where readsControlHAsControlBackspace:
            events.append(.key(.controlBackspace))
        case .scalar(let scalar):
            if let key = Self.key(for: scalar) { events.append(.key(key)) }
        case .timeout: break
        }
    }

    private mutating func afterEscape(_ input: RawInput, into events: inout [InputEvent]) {
        switch input {
        case .scalar("["):
            state = .controlSequence
            parameters.removeAll(keepingCapacity: true)
        case .scalar("O"):
            state = .singleShift
        case .scalar("\u{1B}"):
            // The first ESC was Escape; the second may start a sequence.
            events.append(.key(.escape))
        case .scalar(let scalar) where !Self.isControl(scalar):
            state = .ground
            events.append(.key(.alt(Character(scalar))))
        case .scalar("\u{7F}"), .scalar("\u{08}"):
            state = .ground
            events.append(.key(.altBackspace))
        case .scalar:
            state = .ground
            events.append(.key(.escape))
            ground(input, into: &events)
        case .timeout:
            state = .ground
            events.append(.key(.escape))
        }
    }

    private mutating func inControlSequence(_ input: RawInput, into events: inout [InputEvent]) {
        guard case .scalar(let scalar) = input, scalar.value >= 0x20, scalar.value <= 0x7E else {
            abandonSequence(introducer: "[", then: input, into: &events)
            return
        }
        guard scalar.value >= 0x40 else {
            parameters.append(scalar)
            if parameters.count > EscapeSequence.maximumParameterLength {
                state = .ground
                parameters.removeAll(keepingCapacity: true)
            }
            return
        }
        state = .ground
        if scalar == "[", parameters.isEmpty {
            // The Linux console's F1-F5: ESC [ [ A to ESC [ [ E.
            state = .linuxFunctionKey
            return
        }
        switch EscapeSequence.csi(parameters: parameters, final: scalar) {
        case .event(let event): events.append(event)
        case .beginPaste: beginPaste()
        case .ignore: break
        }
    }

    private mutating func afterSingleShift(_ input: RawInput, into events: inout [InputEvent]) {
        if case .scalar(let scalar) = input, let key = EscapeSequence.ss3(final: scalar) {
            state = .ground
            events.append(.key(key))
        } else {
            parameters.removeAll(keepingCapacity: true)
            abandonSequence(introducer: "O", then: input, into: &events)
        }
    }

    private mutating func afterLinuxFunctionKey(_ input: RawInput, into events: inout [InputEvent])
    {
        state = .ground
        if case .scalar(let scalar) = input, scalar.value >= 0x41, scalar.value <= 0x45 {
            events.append(.key(.function(Int(scalar.value) - 0x40)))
        } else {
            parameters = ["["]
            abandonSequence(introducer: "[", then: input, into: &events)
        }
    }

    /// An ESC sequence that broke off or timed out was Alt with its
    /// introducer, followed by whatever was typed after it.
    private mutating func abandonSequence(
        introducer: Character,
        then input: RawInput,
        into events: inout [InputEvent]
    ) {
        state = .ground
        events.append(.key(.alt(introducer)))
        for scalar in parameters {
            ground(.scalar(scalar), into: &events)
        }
        parameters.removeAll(keepingCapacity: true)
        ground(input, into: &events)
    }

    private mutating func beginPaste() {
        state = .paste
        pasted = String.UnicodeScalarView()
        pasteEndMatched = 0
        pastedCarriageReturn = false
    }

    private mutating func inPaste(_ input: RawInput, into events: inout [InputEvent]) {
        switch input {
        case .scalar(let scalar):
            pasteScalar(scalar, into: &events)
        case .timeout:
            finishPaste(into: &events)
        }
    }

    private mutating func pasteScalar(_ scalar: Unicode.Scalar, into events: inout [InputEvent]) {
        if pasteEndMatched == 0, scalar != "\u{1B}" {
            appendPasted(scalar)
            return
        }
        let end = EscapeSequence.pasteEnd
        if scalar == end[pasteEndMatched] {
            pasteEndMatched += 1
            if pasteEndMatched == end.count {
                pasteEndMatched = 0
                finishPaste(into: &events)
            }
            return
        }
        if pasteEndMatched > 0 {
            // Not the end marker after all: its start was pasted text.
            for matched in end[..<pasteEndMatched] {
                appendPasted(matched)
            }
            pasteEndMatched = 0
            if scalar == end[0] {
                pasteEndMatched = 1
                return
            }
        }
        appendPasted(scalar)
    }

    private mutating func appendPasted(_ scalar: Unicode.Scalar) {
        // Terminals send pasted line ends as CR, like the Enter key.
        if scalar == "\r" {
            pasted.append("\n")
            pastedCarriageReturn = true
            return
        }
        if scalar == "\n", pastedCarriageReturn {
            pastedCarriageReturn = false
            return
        }
        pastedCarriageReturn = false
        pasted.append(scalar)
    }

    private mutating func finishPaste(into events: inout [InputEvent]) {
        let end = EscapeSequence.pasteEnd
        for matched in end[..<pasteEndMatched] {
            appendPasted(matched)
        }
        events.append(.paste(String(pasted)))
        state = .ground
        pasted = String.UnicodeScalarView()
        pasteEndMatched = 0
        pastedCarriageReturn = false
    }

    /// The key a single scalar typed on its own stands for, or nil for C1 controls.
    private static func key(for scalar: Unicode.Scalar) -> Key? {
        switch scalar.value {
        case 0x09: return .tab
        case 0x0A, 0x0D: return .enter
        case 0x08, 0x7F: return .backspace
        case 0x01...0x1A:
            guard let letter = Unicode.Scalar(scalar.value + 0x60) else { return nil }
            return .control(Character(letter))
        case 0x00, 0x1B...0x1F:
            guard let symbol = Unicode.Scalar(scalar.value + 0x40) else { return nil }
            return .control(Character(symbol))
        case 0x80..<0xA0: return nil
        default: return .character(Character(scalar))
        }
    }

    /// C0 controls, DEL and C1 controls.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
    }
}
