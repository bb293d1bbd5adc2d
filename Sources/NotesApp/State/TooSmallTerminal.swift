import TerminalUI

/// What a terminal too small to show the panes does with input: the keys that change the layout
/// or leave work at once (the layout may be why it is too small), and every other key, paste
/// and click waits, in order, until the panes fit again. Nothing typed is lost to a resize.
struct TooSmallTerminal {
    /// Commands that work while nothing is shown.
    static let commandsThatWork: [Command] = [
        .quit, .suspend, .closePane, .narrowPane, .undoLayout, .redoLayout,
    ]
    /// How many events wait at most; more are counted, and the user told.
    static let limit = 100_000

    private var held: [InputEvent] = []
    private var dropped = 0

    /// Keeps an event for when the panes fit.
    mutating func hold(_ event: InputEvent) {
        // A click or a wheel turn points at a screen that is not there.
        if case .mouse = event { return }
        if held.count < Self.limit {
            held.append(event)
        } else {
            dropped += 1
        }
    }

    /// The events held, in order, and how many were not kept; empties the queue.
    mutating func release() -> (events: [InputEvent], dropped: Int) {
        defer {
            held = []
            dropped = 0
        }
        return (held, dropped)
    }
}
