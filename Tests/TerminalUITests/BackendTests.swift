import Testing

@testable import TerminalUI

#if canImport(Glibc)
    import Glibc
#endif

@MainActor
@Suite struct HeadlessBackendTests {
    @Test func drawRecordsTheScreenAndCursor() {
        let terminal = HeadlessBackend(size: Size(width: 10, height: 3))
        #expect(terminal.screenText == "")
        var canvas = Canvas(size: terminal.size)
        canvas.put("Pane 1", at: .zero, style: CellStyle(reverse: true))
        canvas.put("漢字 ok", at: Point(x: 1, y: 2))
        terminal.draw(canvas, cursor: Point(x: 2, y: 2))
        #expect(terminal.screenText == "Pane 1\n\n 漢字 ok")
        #expect(terminal.cursor == Point(x: 2, y: 2))
        #expect(terminal.lastCanvas == canvas)
        #expect(terminal.drawCount == 1)
    }

    @Test func eventsComeOutInOrderThenNil() {
        let terminal = HeadlessBackend()
        terminal.enqueue(.key(.control("z")), .paste("text"))
        terminal.enqueue(contentsOf: [.key(.up)])
        #expect(terminal.pendingEvents == [.key(.control("z")), .paste("text"), .key(.up)])
        #expect(terminal.nextEvent(timeout: nil) == .key(.control("z")))
        #expect(terminal.nextEvent(timeout: .milliseconds(10)) == .paste("text"))
        #expect(terminal.nextEvent(timeout: nil) == .key(.up))
        #expect(terminal.nextEvent(timeout: nil) == nil)
        terminal.enqueue(.key(.enter))
        #expect(terminal.nextEvent(timeout: nil) == .key(.enter))
    }

    @Test func resizingQueuesAResizeEvent() {
        let terminal = HeadlessBackend(size: Size(width: 80, height: 24))
        terminal.enqueue(.key(.tab))
        terminal.size = Size(width: 120, height: 40)
        terminal.size = Size(width: 120, height: 40)
        #expect(terminal.size == Size(width: 120, height: 40))
        #expect(terminal.pendingEvents == [.key(.tab), .resize(Size(width: 120, height: 40))])
    }

    @Test func mouseSuspendAndShutdownAreRecorded() {
        let terminal = HeadlessBackend()
        terminal.setMouseCapture(true)
        terminal.suspend()
        terminal.shutdown()
        #expect(terminal.isMouseCaptured)
        #expect(terminal.suspendCount == 1)
        #expect(terminal.isShutDown)
    }
}

@MainActor
@Suite struct CursesBackendTests {
    @Test func refusesAMissingOrDumbTerminal() {
        #expect(throws: TerminalError.termNotSet) { try CursesBackend(environment: [:]) }
        #expect(throws: TerminalError.termNotSet) { try CursesBackend(environment: ["TERM": ""]) }
        #expect(throws: TerminalError.dumbTerminal) {
            try CursesBackend(environment: ["TERM": "dumb"])
        }
    }

    @Test func refusesATerminalUnknownToTerminfo() {
        #expect(throws: TerminalError.unknownTerminal("no-such-terminal-xyz")) {
            try CursesBackend(environment: ["TERM": "no-such-terminal-xyz"])
        }
    }

    @Test(
        .enabled(
            if: isatty(0) == 0 || isatty(1) == 0,
            "needs standard input or output not to be a terminal"))
    func refusesWhenNotATerminal() {
        #expect(throws: TerminalError.notATerminal) {
            try CursesBackend(environment: ["TERM": "xterm"])
        }
    }

    @Test func cellsHoldWhatCursesCanDrawInOneCell() {
        func codes(_ character: Character) -> [UInt32] {
            CursesBackend.cellCharacters(character).map { UInt32(bitPattern: $0) }
        }
        #expect(codes("a") == [0x61, 0])
        #expect(codes("e\u{301}") == [0x65, 0x301, 0])
        #expect(codes("❤️") == [0x2764, 0xFE0F, 0])
        // A ZWJ sequence keeps its first emoji, without a dangling joiner.
        #expect(codes("👨‍👩‍👧") == [0x1F468, 0])
        // Newer than libc's tables: a replacement curses can place.
        #expect(codes("\u{1FAE8}") == [0xFFFD, 0])
    }

    @Test func messagesSayWhatIsWrong() {
        #expect(
            TerminalError.termNotSet.description.hasSuffix(" needs a terminal (TERM is not set)"))
        #expect(TerminalError.dumbTerminal.description.hasSuffix("(TERM is dumb)"))
        #expect(TerminalError.unknownTerminal("vt999").description.contains("\"vt999\""))
    }
}
