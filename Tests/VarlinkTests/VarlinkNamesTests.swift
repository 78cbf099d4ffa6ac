import Testing

@testable import Varlink

/// ``VarlinkNames/isInterfaceName(_:)`` against the varlink grammar's rule written out segment by segment: every
/// name of up to five bytes over letters, digits, dots, hyphens and one byte outside the grammar, then longer ones.
@Suite struct VarlinkNamesTests {
    /// `[A-Za-z](-*[A-Za-z0-9])*` followed by one or more `.[A-Za-z0-9](-*[A-Za-z0-9])*`.
    static func isInterfaceNameBySegments(_ bytes: [UInt8]) -> Bool {
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count >= 2 else { return false }
        for (i, segment) in segments.enumerated() {
            guard let first = segment.first, let last = segment.last else { return false }
            let isAlpha = { (b: UInt8) in (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b | 0x20) }
            let isDigit = { (b: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) }
            guard i == 0 ? isAlpha(first) : (isAlpha(first) || isDigit(first)) else { return false }
            guard isAlpha(last) || isDigit(last) else { return false }
            guard segment.allSatisfy({ isAlpha($0) || isDigit($0) || $0 == UInt8(ascii: "-") }) else { return false }
        }
        return true
    }

    @Test func everyShortNameIsJudgedAsTheGrammarSays() {
        let alphabet = Array("aZ7.-_".utf8)
        var names: [[UInt8]] = [[]]
        var accepted = 0
        for _ in 0..<5 {
            names = names.flatMap { name in alphabet.map { name + [$0] } }
            for name in names {
                let expected = Self.isInterfaceNameBySegments(name)
                if expected { accepted += 1 }
                #expect(VarlinkNames.isInterfaceName(name) == expected, "\(String(decoding: name, as: UTF8.self))")
            }
        }
        #expect(accepted > 100)  // the alphabet reaches both answers
    }

    @Test(arguments: [
        ("io.notifyd.Router", true), ("org.varlink.service", true), ("a.b", true), ("a-b.c--d.9", true),
        ("io.systemd.Resolve2", true), ("io", false), ("", false), ("9io.x", false), ("io.", false), (".io", false),
        ("io..x", false), ("io-.x", false), ("io.-x", false), ("io.x-", false), ("io.x_y", false), ("io.x y", false),
        ("io.notifyd.Router\u{0}", false),
    ])
    func namesAreJudged(name: String, valid: Bool) {
        #expect(VarlinkNames.isInterfaceName(Array(name.utf8)) == valid)
        #expect(Self.isInterfaceNameBySegments(Array(name.utf8)) == valid)
        #expect(VarlinkNames.isQualifiedMethod(name + ".Route") == valid)
    }
}
