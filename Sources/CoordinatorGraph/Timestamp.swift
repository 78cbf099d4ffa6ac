import JSON

/// A point in time: milliseconds since 1970-01-01T00:00:00Z (UTC, leap seconds ignored).
///
/// The libraries never read a clock; the daemon passes the current time in. Written and read as
/// RFC 3339 UTC with millisecond precision: `2024-05-01T12:34:56.789Z`.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z; negative before.
    public var millisecondsSince1970: Int64

    /// A timestamp from milliseconds since 1970.
    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    /// The timestamp `seconds` later (earlier when negative).
    public func adding(seconds: Int) -> Timestamp {
        Timestamp(millisecondsSince1970: millisecondsSince1970 &+ Int64(seconds) &* 1000)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    /// The RFC 3339 UTC form with milliseconds, e.g. `2024-05-01T12:34:56.789Z`.
    public var description: String { rfc3339 }

    /// The RFC 3339 UTC form with milliseconds, e.g. `2024-05-01T12:34:56.789Z`.
    ///
    /// Years outside 0000–9999 are written with as many digits as they need (and a sign when negative).
    public var rfc3339: String {
        var out = ByteWriter(capacity: 32)
        writeRFC3339(into: &out)
        return out.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends ``rfc3339`` as UTF-8.
    public func writeRFC3339(into out: inout ByteWriter) {
        if let words = rfc3339Words {
            // The usual case, written in one go.
            return appendRFC3339Words(words, into: &out)
        }
        let (days, msOfDay) = dayAndMillisecond
        let (year, month, day) = Timestamp.civil(fromDays: days)
        if year < 0 { out.append(UInt8(ascii: "-")) }
        appendDigits(abs(year), width: 4, into: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(month, width: 2, into: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(day, width: 2, into: &out)
        out.append(UInt8(ascii: "T"))
        appendDigits(msOfDay / 3_600_000, width: 2, into: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(msOfDay / 60_000 % 60, width: 2, into: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(msOfDay / 1000 % 60, width: 2, into: &out)
        out.append(UInt8(ascii: "."))
        appendDigits(msOfDay % 1000, width: 3, into: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// The day since 1970-01-01 and the millisecond of that day; `days * 86_400_000 + msOfDay` is the timestamp,
    /// computed without overflow for every value (`Int64.min` included).
    var dayAndMillisecond: (days: Int64, msOfDay: Int64) {
        let ms = millisecondsSince1970
        let remainder = ms % 86_400_000
        return remainder < 0 ? (ms / 86_400_000 - 1, remainder + 86_400_000) : (ms / 86_400_000, remainder)
    }

    /// The 24 bytes of ``rfc3339`` (`YYYY-MM-DDTHH:MM:SS.mmmZ`) for the years 0000–9999, else `nil`.
    var rfc3339Words: (UInt64, UInt64, UInt64)? {
        let (days, msOfDay) = dayAndMillisecond
        let (year, month, day) = Timestamp.civil(fromDays: days)
        guard year >= 0, year <= 9999 else { return nil }
        let fields = (
            Int(year), Int(month), Int(day), Int(msOfDay / 3_600_000), Int(msOfDay / 60_000 % 60),
            Int(msOfDay / 1000 % 60), Int(msOfDay % 1000)
        )
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            func two(_ value: Int, at i: Int) {
                raw[i] = 0x30 &+ UInt8(truncatingIfNeeded: value / 10)
                raw[i + 1] = 0x30 &+ UInt8(truncatingIfNeeded: value % 10)
            }
            two(fields.0 / 100, at: 0)
            two(fields.0 % 100, at: 2)
            raw[4] = UInt8(ascii: "-")
            two(fields.1, at: 5)
            raw[7] = UInt8(ascii: "-")
            two(fields.2, at: 8)
            raw[10] = UInt8(ascii: "T")
            two(fields.3, at: 11)
            raw[13] = UInt8(ascii: ":")
            two(fields.4, at: 14)
            raw[16] = UInt8(ascii: ":")
            two(fields.5, at: 17)
            raw[19] = UInt8(ascii: ".")
            raw[20] = 0x30 &+ UInt8(truncatingIfNeeded: fields.6 / 100)
            two(fields.6 % 100, at: 21)
            raw[23] = UInt8(ascii: "Z")
        }
        return words
    }

    /// Parses RFC 3339: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`.
    ///
    /// `t`/`z` may be lower-case; a fraction finer than milliseconds is truncated; a leap second (`:60`) is
    /// read as the next second. Returns `nil` for anything else, including out-of-range fields.
    public init?(rfc3339 text: String) {
        var utf8 = Array(text.utf8)[...]
        func number(_ width: Int) -> Int64? {
            guard utf8.count >= width else { return nil }
            var n: Int64 = 0
            for byte in utf8.prefix(width) {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                n = n * 10 + Int64(byte - 0x30)
            }
            utf8 = utf8.dropFirst(width)
            return n
        }
        func expect(_ options: UInt8...) -> Bool {
            guard let first = utf8.first, options.contains(first) else { return false }
            utf8 = utf8.dropFirst()
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
            let day = number(2), expect(UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")),
            let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")),
            let second = number(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= Timestamp.daysIn(month: month, year: year),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var millis: Int64 = 0
        if expect(UInt8(ascii: ".")) {
            var digits = 0
            while let byte = utf8.first, byte >= 0x30, byte <= 0x39 {
                if digits < 3 { millis = millis * 10 + Int64(byte - 0x30) }
                digits += 1
                utf8 = utf8.dropFirst()
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { millis *= 10 }
        }
        var offsetMinutes: Int64 = 0
        if expect(UInt8(ascii: "Z"), UInt8(ascii: "z")) {
            offsetMinutes = 0
        } else if let sign = utf8.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            utf8 = utf8.dropFirst()
            guard let oh = number(2), expect(UInt8(ascii: ":")), let om = number(2), oh <= 23, om <= 59 else {
                return nil
            }
            offsetMinutes = (oh * 60 + om) * (sign == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        guard utf8.isEmpty else { return nil }
        let days = Timestamp.days(fromCivil: year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        self.init(millisecondsSince1970: seconds * 1000 + millis)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (`civil_from_days`).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

private func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

/// Appends the decimal digits of a non-negative `value`, zero-padded to `width`.
private func appendDigits(_ value: Int64, width: Int, into out: inout ByteWriter) {
    // The fields of a timestamp: two to four digits, written from the right into a stack word.
    let limit: Int64 = width == 2 ? 100 : width == 3 ? 1_000 : width == 4 ? 10_000 : 0
    if value >= 0, value < limit {
        var v = UInt32(truncatingIfNeeded: value)
        var word: UInt32 = 0
        for _ in 0..<4 {
            word = word << 8 | (0x30 + v % 10)
            v /= 10
        }
        // The ones digit, computed first, ends in the high byte: in memory (little-endian) the digits read in order.
        withUnsafeBytes(of: word) { out.append($0.baseAddress! + (4 - width), count: width) }
        return
    }
    // At most 19 digits, written from the right into a stack buffer and appended at once.
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &digits) { buffer in
        var v = value
        var i = buffer.count
        repeat {
            i -= 1
            buffer[i] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
        } while v > 0
        let count = buffer.count - i
        if width > count { out.append(repeating: UInt8(ascii: "0"), count: width - count) }
        if let base = buffer.baseAddress { out.append(base + i, count: count) }
    }
}

/// The RFC 3339 texts of the last two timestamps written, to write them again without computing their date.
///
/// A writer that makes many decisions keeps one: most decisions are made in the same millisecond as the one
/// before, and a gated decision's expiry (a fixed time later) repeats with its creation time. Two slots, the older
/// one replaced, so that a creation time and an expiry written in turn both stay.
public struct TimestampTexts: Sendable {
    /// The timestamps kept, in milliseconds since 1970; `Int64.min` (whose year is out of range, so never kept)
    /// marks an empty slot.
    private var keys: (Int64, Int64) = (.min, .min)
    private var texts: ((UInt64, UInt64, UInt64), (UInt64, UInt64, UInt64)) = ((0, 0, 0), (0, 0, 0))
    /// The slot the next timestamp not kept replaces.
    private var replacesSecond = false

    public init() {}

    /// Appends ``Timestamp/rfc3339`` of `timestamp`, from the slot that keeps it when one does.
    public mutating func write(_ timestamp: Timestamp, into out: inout ByteWriter) {
        let ms = timestamp.millisecondsSince1970
        if ms != .min {
            if ms == keys.0 { return appendRFC3339Words(texts.0, into: &out) }
            if ms == keys.1 { return appendRFC3339Words(texts.1, into: &out) }
        }
        guard let words = timestamp.rfc3339Words else { return timestamp.writeRFC3339(into: &out) }
        if replacesSecond {
            (keys.1, texts.1) = (ms, words)
        } else {
            (keys.0, texts.0) = (ms, words)
        }
        replacesSecond.toggle()
        appendRFC3339Words(words, into: &out)
    }
}

/// Appends the 24 bytes of ``Timestamp/rfc3339Words``.
@inline(__always)
private func appendRFC3339Words(_ words: (UInt64, UInt64, UInt64), into out: inout ByteWriter) {
    withUnsafeBytes(of: words) { out.append($0.baseAddress!, count: 24) }
}
