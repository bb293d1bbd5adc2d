/// A count with its noun in the right number: "1 article", "4 articles", "0 articles".
func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
