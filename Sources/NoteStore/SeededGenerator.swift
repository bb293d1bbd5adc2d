/// SplitMix64: a tiny generator whose sequence depends only on its seed, on every platform and
/// toolchain, so the demo notebook is the same everywhere (and a seeded test replays exactly).
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose whole sequence is determined by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<count` (count > 0). The modulo bias is irrelevant for demo data and,
    /// unlike the standard library's `random(in:using:)`, this stays the same across versions.
    public mutating func next(below count: Int) -> Int {
        Int(next() % UInt64(count))
    }
}
