/// Numbers as people read them: thousands grouped, durations and sizes with units.
enum Units {
    /// `1,204,331`; a fraction keeps up to three significant decimals (`12.5`).
    static func number(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return String(value) }
        if value.rounded() != value { return significant(value) }
        let digits = String(Int(abs(value)))
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }

    /// `1 event loop`, `2 event loops`; `plural` for nouns that do not take an s.
    static func count(_ value: Double, _ noun: String, plural: String? = nil) -> String {
        number(value) + " " + (value == 1 ? noun : plural ?? noun + "s")
    }

    /// `850 µs`, `1.25 ms`, `2.1 s`.
    static func duration(microseconds: Double) -> String {
        if microseconds < 1000 { return significant(microseconds) + " µs" }
        if microseconds < 1_000_000 { return significant(microseconds / 1000) + " ms" }
        return duration(seconds: microseconds / 1_000_000)
    }

    /// `4.2 s`, `5 min 3 s`, `2 h 5 min`, `3 d 4 h`.
    static func duration(seconds: Double) -> String {
        if seconds < 60 { return significant(seconds) + " s" }
        let whole = Int(seconds)
        let (minutes, hours, days) = (whole / 60, whole / 3600, whole / 86400)
        if hours == 0 { return "\(minutes) min \(whole % 60) s" }
        if days == 0 { return "\(hours) h \(minutes % 60) min" }
        return "\(days) d \(hours % 24) h"
    }

    /// `812 B`, `19.1 MiB`, `1.5 GiB`.
    static func bytes(_ value: Double) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var scaled = value
        var unit = 0
        while scaled >= 1024, unit < units.count - 1 {
            scaled /= 1024
            unit += 1
        }
        return (unit == 0 ? number(scaled) : significant(scaled)) + " " + units[unit]
    }

    /// Three significant digits at most, without trailing zeros: `115`, `12.5`, `1.25`, `0.0123`.
    static func significant(_ value: Double) -> String {
        guard value != 0, value.isFinite else { return value == 0 ? "0" : String(value) }
        var decimals = 0
        var magnitude = abs(value)
        while magnitude < 100, decimals < 6 {
            magnitude *= 10
            decimals += 1
        }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if decimals == 0 { return number(rounded.rounded()) }
        var text = String(rounded)
        if text.contains("e") { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
