/// One side of a comparison: untimed preparation, then the timed work.
struct Contender {
    var prepare: () throws -> Void = {}
    let run: () throws -> Void
}

/// Runs contenders in turn (A B A B …) so that machine noise falls on all of them alike.
@MainActor
enum Interleaving {
    /// Runs one untimed warm-up round, then `repetitions` timed rounds; the order is reversed
    /// every other round so no contender always runs right after the same one.
    /// - Returns: each contender's median time in seconds, in the contenders' order.
    static func medianSeconds(_ contenders: [Contender], repetitions: Int) throws -> [Double] {
        var samples = Array(repeating: [Double](), count: contenders.count)
        for round in 0...repetitions {
            let order =
                round.isMultiple(of: 2)
                ? Array(contenders.indices)
                : contenders.indices.reversed()
            for index in order {
                try contenders[index].prepare()
                let seconds = try time(contenders[index].run)
                if round > 0 { samples[index].append(seconds) }
            }
        }
        return samples.map(median)
    }

    /// How long `work` takes, in seconds.
    static func time(_ work: () throws -> Void) throws -> Double {
        let elapsed = try ContinuousClock().measure(work)
        return Double(elapsed.components.seconds)
            + Double(elapsed.components.attoseconds) / 1e18
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2)
            ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
}
