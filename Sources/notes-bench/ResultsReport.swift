import Foundation

/// Prints the results: an aligned text table, or JSON.
enum ResultsReport {
    static func table(_ measurements: [Measurement]) -> String {
        let header = ["measure", "median A", "median B", "ratio", "target", "result"]
        let rows = measurements.map { measurement in
            [
                measurement.measure, format(measurement.value, measurement.unit),
                format(measurement.baseline, measurement.unit),
                String(format: "%.2f", measurement.ratio), measurement.target.label,
                measurement.passes.map { $0 ? "PASS" : "MISS" } ?? "-",
            ]
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }
            return "| " + padded.joined(separator: " | ") + " |"
        }
        let rule =
            "|"
            + widths.enumerated().map { column, width in
                String(repeating: "-", count: width + 1) + (column == 0 ? "-" : ":")
            }.joined(separator: "|") + "|"
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }

    static func json(_ measurements: [Measurement], quick: Bool) throws -> String {
        struct Document: Encodable {
            let quick: Bool
            let measurements: [Measurement]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(Document(quick: quick, measurements: measurements))
        return String(decoding: data, as: UTF8.self)
    }

    static func format(_ value: Double, _ unit: Measurement.Unit) -> String {
        switch unit {
        case .seconds:
            if value >= 1 { return String(format: "%.2f s", value) }
            if value >= 1e-3 { return String(format: "%.2f ms", value * 1e3) }
            return String(format: "%.1f µs", value * 1e6)
        case .kilobytes: return String(format: "%.1f MB", value / 1024)
        case .bytes:
            if value >= 1_048_576 { return String(format: "%.1f MB", value / 1_048_576) }
            if value >= 1024 { return String(format: "%.1f KB", value / 1024) }
            return "\(Int(value)) B"
        case .rows: return "\(Int(value)) rows"
        }
    }
}
