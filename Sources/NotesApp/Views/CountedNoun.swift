/// A count with its noun in the right number: "1 article", "4 articles", "0 articles".
func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}

/// A whole number with its thousands grouped: "100,001".
func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var text = ""
    for (index, digit) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
        text.append(digit)
    }
    return number < 0 ? "-" + text : text
}
