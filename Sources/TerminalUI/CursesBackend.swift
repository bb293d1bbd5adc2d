internal import CNCursesW

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The real terminal: ncursesw draws, `TerminalInput` and `InputDecoder` read.
///
/// Starting it puts the terminal in raw mode (so Ctrl-C, Ctrl-Z, Ctrl-S,
/// Ctrl-Q and Ctrl-Y arrive as keys), switches on bracketed paste, and
/// arranges for the terminal to be restored on `shutdown`, at exit, on
/// SIGINT, SIGTERM, SIGHUP and on crash signals. Only one can run at a time.
///
/// Input bypasses curses (see `TerminalInput` for why): keys are decoded
/// from the escape sequences terminals send, not from terminfo.
@MainActor
public final class CursesBackend: TerminalBackend {
    private static var isRunning = false
    private static let pasteOn: StaticString = "\u{1B}[?2004h"
    private static let mouseOn: StaticString = "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h"
    private static let mouseOff: StaticString = "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l"

    private var screen: OpaquePointer?
    private let output: UnsafeMutablePointer<FILE>
    private let input: UnsafeMutablePointer<FILE>
    private let palette: CursesPalette
    private let terminalInput: TerminalInput
    private var decoder: InputDecoder
    private var pendingEvents: [InputEvent] = []
    private var isMouseCaptured = false
    /// The size the app last heard of (curses may learn of a change first, on resume).
    private var reportedSize = Size.zero
    private var lastFrame: (canvas: Canvas, cursor: Point?)?

    /// Takes over the terminal.
    ///
    /// - Parameters:
    ///   - environment: Where TERM and NO_COLOR are read (the process's by default).
    ///   - escapeDelay: How long an ESC waits for the rest of a key's sequence.
    /// - Throws: `TerminalError` when there is no usable terminal: TERM unset,
    ///   `dumb` or unknown to terminfo, standard input or output not a terminal,
    ///   or another `CursesBackend` running. Nothing is changed then.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        escapeDelay: Duration = .milliseconds(25)
    ) throws(TerminalError) {
        // Checked first: probing terminfo would disturb a running screen.
        guard !Self.isRunning else { throw .alreadyInUse }
        let term = try Self.checkTerminal(environment: environment)
        // ncurses reads the locale to decide how to encode wide characters.
        setlocale(LC_ALL, "")
        UTF8Locale.activate()
        // Duplicates, so that closing them at shutdown leaves stdin and stdout open.
        guard let output = fdopen(dup(STDOUT_FILENO), "w") else { throw .cannotStart(term) }
        guard let input = fdopen(dup(STDIN_FILENO), "r") else {
            fclose(output)
            throw .cannotStart(term)
        }
        guard let terminalInput = TerminalInput(inputDescriptor: STDIN_FILENO) else {
            fclose(output)
            fclose(input)
            throw .cannotStart(term)
        }
        TerminalRestoration.install()
        guard let screen = newterm(term, output, input) else {
            TerminalRestoration.uninstall()
            terminalInput.close()
            fclose(output)
            fclose(input)
            throw .cannotStart(term)
        }
        self.terminalInput = terminalInput
        self.screen = screen
        self.output = output
        self.input = input
        decoder = InputDecoder(
            escapeDelay: escapeDelay,
            readsControlHAsControlBackspace: cncurses_backspace_sends_control_h() == 0)
        Self.isRunning = true

        // Terminal modes only: curses never reads the input.
        raw()
        noecho()
        nonl()
        // Curses must not poll the input to cut screen updates short.
        typeahead(-1)
        palette = CursesPalette(noColor: !(environment["NO_COLOR"] ?? "").isEmpty)

        TerminalRestoration.cursesDidStart()
        Self.write(Self.pasteOn)
        reportedSize = size
    }

    isolated deinit {
        shutdown()
    }

    /// The terminal's current size in cells.
    public var size: Size {
        Size(width: Int(cncurses_cols()), height: Int(cncurses_lines()))
    }

    /// Shows `canvas` (only changed cells are sent) and places or hides the cursor.
    public func draw(_ canvas: Canvas, cursor: Point?) {
        guard screen != nil else { return }
        lastFrame = (canvas, cursor)
        let window = cncurses_stdscr()
        werase(window)
        let visible = canvas.bounds.intersection(Rect(origin: .zero, size: size))
        for y in visible.y..<visible.maxY {
            for x in visible.x..<visible.maxX {
                guard let cell = canvas.cell(at: Point(x: x, y: y)),
                    case .character(let character) = cell.content
                else { continue }
                let isWide = canvas.cell(at: Point(x: x + 1, y: y))?.content == .continuation
                // A wide grapheme cut by the terminal's edge would wrap: a space stands in.
                let shown: Character = isWide && x + 1 >= visible.maxX ? " " : character
                put(shown, style: cell.style, y: Int32(y), x: Int32(x))
            }
        }
        if let cursor, visible.contains(cursor) {
            curs_set(1)
            wmove(window, Int32(cursor.y), Int32(cursor.x))
        } else {
            curs_set(0)
        }
        wrefresh(window)
    }

    /// The next event, waiting at most `timeout` (forever when nil).
    public func nextEvent(timeout: Duration?) -> InputEvent? {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now + $0 }
        while pendingEvents.isEmpty {
            // A sequence in progress waits its own time, whatever the caller's deadline.
            let sequenceTimeout = decoder.pendingTimeout
            var wait = sequenceTimeout
            if sequenceTimeout == nil, let deadline {
                let remaining = deadline - clock.now
                guard remaining > .zero else { return nil }
                wait = remaining
            }
            switch terminalInput.read(timeout: wait) {
            case .scalars(let scalars):
                pendingEvents += decoder.feed(contentsOf: scalars.lazy.map(RawInput.scalar))
            case .timedOut:
                if sequenceTimeout != nil { pendingEvents += decoder.feed(.timeout) }
            case .resized:
                if let resize = resizeToWindow() { pendingEvents.append(resize) }
            case .interrupted:
                continue
            case .closed:
                // The terminal hung up: SIGHUP ends the process unless it is
                // ignored; then nothing can ever arrive, so wait without spinning.
                raise(SIGHUP)
                let milliseconds = (wait ?? .seconds(1)) / .milliseconds(1)
                usleep(useconds_t(clamping: Int(milliseconds) * 1000))
                return nil
            }
        }
        return pendingEvents.removeFirst()
    }

    /// Turns mouse reporting (clicks, drags, wheel; SGR encoding) on or off.
    public func setMouseCapture(_ on: Bool) {
        guard screen != nil, on != isMouseCaptured else { return }
        isMouseCaptured = on
        Self.write(on ? Self.mouseOn : Self.mouseOff)
    }

    /// Sends `text` to the terminal's clipboard as OSC 52 (`ESC ] 52 ; c ; base64 BEL`): xterm,
    /// kitty, iTerm2, WezTerm, foot and tmux (with `set-clipboard`) take it. Not on the Linux
    /// console, which prints what it does not know.
    public func copyToClipboard(_ text: String) {
        guard screen != nil, ProcessInfo.processInfo.environment["TERM"] != "linux" else { return }
        let sequence = "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
        Array(sequence.utf8).withUnsafeBytes(Self.write)
    }

    /// Restores the terminal, stops the process group, and on resume takes
    /// the terminal back and draws the last frame again from scratch.
    public func suspend() {
        guard screen != nil else { return }
        TerminalRestoration.restore()
        TerminalRestoration.withDefaultStopAction {
            kill(0, SIGTSTP)
        }
        // Resumed (SIGCONT): the next refresh puts curses back in charge.
        TerminalRestoration.cursesDidStart()
        let window = cncurses_stdscr()
        clearok(window, true)
        if let lastFrame {
            draw(lastFrame.canvas, cursor: lastFrame.cursor)
        } else {
            wrefresh(window)
        }
        Self.write(Self.pasteOn)
        if isMouseCaptured { Self.write(Self.mouseOn) }
        if let resize = resizeToWindow() { pendingEvents.append(resize) }
    }

    /// Tells curses the window's size; a resize event if the app has not heard of it.
    private func resizeToWindow() -> InputEvent? {
        if let windowSize = terminalInput.windowSize(), windowSize != size {
            resizeterm(Int32(windowSize.height), Int32(windowSize.width))
        }
        guard size != reportedSize else { return nil }
        reportedSize = size
        return .resize(size)
    }

    /// Restores the terminal and releases curses. Further calls do nothing.
    public func shutdown() {
        guard let screen else { return }
        TerminalRestoration.restore()
        TerminalRestoration.uninstall()
        terminalInput.close()
        delscreen(screen)
        fclose(output)
        fclose(input)
        self.screen = nil
        Self.isRunning = false
    }

    /// Checks, without touching the terminal, that curses can run.
    ///
    /// - Returns: The terminal type to start.
    static func checkTerminal(environment: [String: String]) throws(TerminalError) -> String {
        guard let term = environment["TERM"], !term.isEmpty else { throw .termNotSet }
        guard term != "dumb" else { throw .dumbTerminal }
        var status: Int32 = 0
        guard setupterm(term, STDOUT_FILENO, &status) == OK else { throw .unknownTerminal(term) }
        // Only a probe: newterm loads its own copy.
        del_curterm(set_curterm(nil))
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
        return term
    }

    private func put(_ character: Character, style: CellStyle, y: Int32, x: Int32) {
        var characters = Self.cellCharacters(character)
        let (attributes, pair) = palette.attributes(for: style)
        var cell = cchar_t()
        guard setcchar(&cell, &characters, attributes, pair, nil) != ERR else { return }
        mvwadd_wch(cncurses_stdscr(), y, x, &cell)
    }

    /// What curses can hold of a grapheme in one cell, zero-terminated.
    ///
    /// A curses cell is one spacing character and up to four combining ones;
    /// curses would cut an emoji sequence after its first emoji anyway, so it
    /// is cut here, before the joiner, to leave no dangling ZWJ. A base
    /// character libc has no width for (an emoji newer than its tables) is
    /// drawn as U+FFFD, which curses and the terminal agree is one column wide.
    static func cellCharacters(_ character: Character) -> [wchar_t] {
        var characters: [wchar_t] = []
        characters.reserveCapacity(Int(CCHARW_MAX) + 1)
        for scalar in character.unicodeScalars {
            if characters.isEmpty {
                let known = CursesCharacterWidth.of(scalar) != nil
                characters.append(wchar_t(bitPattern: known ? scalar.value : 0xFFFD))
                if !known { break }
                continue
            }
            guard characters.count < Int(CCHARW_MAX), scalar != "\u{200D}",
                CursesCharacterWidth.of(scalar) == 0
            else { break }
            characters.append(wchar_t(bitPattern: scalar.value))
        }
        characters.append(0)
        return characters
    }

    private static func write(_ sequence: StaticString) {
        write(UnsafeRawBufferPointer(start: sequence.utf8Start, count: sequence.utf8CodeUnitCount))
    }

    /// Writes `bytes` to the terminal whole, however many writes it takes (a long OSC 52).
    private static func write(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes
        while let start = rest.baseAddress, !rest.isEmpty {
            let count = Glibc.write(STDOUT_FILENO, start, rest.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            rest = UnsafeRawBufferPointer(rebasing: rest[count...])
        }
    }
}
