/// One row of the results: a measure, its baseline measured in the same run, and the target
/// their ratio must meet (or none, for a row that shows what a target is measured against).
struct Measurement: Encodable {
    enum Unit: String, Encodable {
        case seconds
        case kilobytes
        case bytes
        case rows
    }

    enum Target: Encodable, Equatable {
        /// The ratio measure / baseline must be at most this.
        case atMost(Double)
        /// The measure must equal the baseline.
        case equal
        /// The measure (kB) may exceed the baseline (kB) by at most this many MB: memory added.
        case addsAtMostMegabytes(Double)
        /// No target: a reference point, such as the least any design could cost.
        case none

        var label: String {
            switch self {
            case .atMost(let limit): "≤ \(limit)"
            case .equal: "equal"
            case .addsAtMostMegabytes(let limit): "+ ≤ \(Int(limit)) MB"
            case .none: "-"
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(label)
        }
    }

    /// What is measured, and against what: "A / B".
    let measure: String
    /// The measure's median.
    let value: Double
    /// The baseline's median.
    let baseline: Double
    let unit: Unit
    let target: Target

    var ratio: Double { value / baseline }

    /// Whether the target is met; nil when there is none.
    var passes: Bool? {
        switch target {
        case .atMost(let limit): ratio <= limit
        case .equal: value == baseline
        case .addsAtMostMegabytes(let limit): (value - baseline) / 1024 <= limit
        case .none: nil
        }
    }

    private enum CodingKeys: String, CodingKey {
        case measure, value, baseline, unit, ratio, target, passes
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(measure, forKey: .measure)
        try container.encode(value, forKey: .value)
        try container.encode(baseline, forKey: .baseline)
        try container.encode(unit, forKey: .unit)
        try container.encode(ratio, forKey: .ratio)
        try container.encode(target, forKey: .target)
        try container.encodeIfPresent(passes, forKey: .passes)
    }
}
