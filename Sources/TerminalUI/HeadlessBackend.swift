/// A terminal without a terminal, for tests: it records what is drawn and
/// replays events that the test queued.
///
/// ```swift
/// let terminal = HeadlessBackend(size: Size(width: 40, height: 10))
/// terminal.enqueue(.key(.down), .key(.enter))
/// while let event = terminal.nextEvent(timeout: nil) {   // nil once the queue is empty
///     model.handle(event)
///     terminal.draw(model.render(size: terminal.size), cursor: nil)
/// }
/// #expect(terminal.screenText == """
///     ...
///     """)
/// ```
@MainActor
public final class HeadlessBackend: TerminalBackend {
    /// The terminal's size; setting it queues a `.resize` event, as a real resize would.
    public var size: Size {
        didSet {
            if size != oldValue { events.append(.resize(size)) }
        }
    }

    /// The last canvas drawn, or nil before the first draw.
    public private(set) var lastCanvas: Canvas?
    /// The cursor position of the last draw (nil: hidden).
    public private(set) var cursor: Point?
    /// How many times `draw` was called.
    public private(set) var drawCount = 0
    /// Whether `draw` keeps every screen's text in `recordedScreens` (for frames drawn in the
    /// middle of long work).
    public var recordsScreens = false
    /// The text of every screen drawn while `recordsScreens` was on, in order.
    public private(set) var recordedScreens: [String] = []
    /// Whether mouse reporting is on.
    public private(set) var isMouseCaptured = false
    /// What the app last put on the terminal's clipboard (nil: nothing yet).
    public private(set) var clipboard: String?
    /// How many times `suspend` was called.
    public private(set) var suspendCount = 0
    /// Whether `shutdown` was called.
    public private(set) var isShutDown = false

    private var events: [InputEvent] = []
    private var nextEventIndex = 0

    /// Creates a headless terminal of `size` (80×24 by default) with no event queued.
    public init(size: Size = Size(width: 80, height: 24)) {
        self.size = size
    }

    /// The events queued and not yet read.
    public var pendingEvents: [InputEvent] {
        Array(events[nextEventIndex...])
    }

    /// Queues events for `nextEvent` to return, in order.
    public func enqueue(_ newEvents: InputEvent...) {
        enqueue(contentsOf: newEvents)
    }

    /// Queues events for `nextEvent` to return, in order.
    public func enqueue(contentsOf newEvents: some Sequence<InputEvent>) {
        events.append(contentsOf: newEvents)
    }

    /// The last drawn screen as text (see `Canvas.text`), or "" before the first draw.
    public var screenText: String {
        lastCanvas?.text ?? ""
    }

    /// Records the canvas and cursor.
    ///
    /// The canvas is kept as drawn; a test that wants to check clipping to
    /// the terminal size compares `lastCanvas?.size` with `size`.
    public func draw(_ canvas: Canvas, cursor: Point?) {
        if recordsScreens { recordedScreens.append(canvas.text) }
        lastCanvas = canvas
        self.cursor = cursor
        drawCount += 1
    }

    /// The next queued event, or nil at once when the queue is empty (it never waits).
    public func nextEvent(timeout: Duration?) -> InputEvent? {
        guard nextEventIndex < events.count else { return nil }
        let event = events[nextEventIndex]
        nextEventIndex += 1
        if nextEventIndex == events.count {
            events.removeAll(keepingCapacity: true)
            nextEventIndex = 0
        }
        return event
    }

    /// Records whether mouse reporting is on.
    public func setMouseCapture(_ on: Bool) {
        isMouseCaptured = on
    }

    /// Records the text.
    public func copyToClipboard(_ text: String) {
        clipboard = text
    }

    /// Counts the suspension; returns at once.
    public func suspend() {
        suspendCount += 1
    }

    /// Records the shutdown.
    public func shutdown() {
        isShutDown = true
    }
}
