import TerminalUI

/// A key as the shortcut bar shows it, with what it does: `^Z Undo`.
struct Shortcut: Equatable, Sendable {
    let key: String
    let label: String
    /// The bar's row, 0 or 1.
    let row: Int
}

/// One line of a keymap: the keys that do one thing, what they do, and how the F1 help and the
/// shortcut bar name them. Dispatch, the bar and the help all read this one line.
struct KeyBinding<Action: Sendable>: Sendable {
    /// The keys as the help names them: "Ctrl-Z  Alt-U".
    let keys: String
    /// What they do, as the help says it: "undo the focused pane's last action".
    let help: String
    /// Its items on the shortcut bar, if any.
    let shortcuts: [Shortcut]
    /// The action for a key, or nil when this binding does not take the key.
    let action: @Sendable (Key) -> Action?

    /// Binds fixed keys to one action.
    init(
        _ bound: [Key], _ action: Action, keys: String, help: String,
        shortcuts: [Shortcut] = []
    ) {
        self.init(keys: keys, help: help, shortcuts: shortcuts) {
            bound.contains($0) ? action : nil
        }
    }

    /// Binds each key to its own action.
    init(
        _ choices: [Key: Action], keys: String, help: String, shortcuts: [Shortcut] = []
    ) {
        self.init(keys: keys, help: help, shortcuts: shortcuts) { choices[$0] }
    }

    /// Binds the keys `action` takes (a range of digits, any character).
    init(
        keys: String, help: String, shortcuts: [Shortcut] = [],
        action: @escaping @Sendable (Key) -> Action?
    ) {
        self.keys = keys
        self.help = help
        self.shortcuts = shortcuts
        self.action = action
    }
}

/// An action that types a character (into the text, the search, the picker's filter).
protocol TypesCharacters: Sendable {
    static func type(_ character: Character) -> Self
}

extension KeyBinding where Action: TypesCharacters {
    /// Binds every character key to typing it.
    static func characters(help: String) -> KeyBinding {
        KeyBinding(keys: "Characters", help: help) { key in
            if case .character(let character) = key { .type(character) } else { nil }
        }
    }
}

/// The keys of one mode of the app (the list, an open article, a search being typed, the author
/// picker, the help), in the order the help lists them.
struct Keymap<Action: Sendable>: Sendable {
    /// The help's heading for the mode.
    let title: String
    let bindings: [KeyBinding<Action>]

    /// What `key` does in this mode, or nil when it means nothing here. Shift with a key the
    /// mode does not bind with Shift does what the key does (Shift-Down moves in the list).
    func action(for key: Key) -> Action? {
        for binding in bindings {
            if let action = binding.action(key) { return action }
        }
        if case .shift(let unshifted) = key { return action(for: unshifted) }
        return nil
    }

    /// The shortcut bar's items of this mode, in order.
    var shortcuts: [Shortcut] { bindings.flatMap(\.shortcuts) }
}
