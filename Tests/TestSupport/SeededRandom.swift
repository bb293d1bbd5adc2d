import NoteStore

/// The tests' seeded generator: NoteStore's SplitMix64 (the one the demo notebook is drawn
/// with), whose whole sequence is fixed by its seed on every platform, toolchain and process,
/// so a seeded test replays exactly and a failing seed can be run again.
public typealias SeededRandom = SeededGenerator

extension SeededGenerator {
    /// One of `items` (not empty), chosen with `next(below:)`.
    public mutating func pick<Item>(_ items: [Item]) -> Item {
        items[next(below: items.count)]
    }
}
