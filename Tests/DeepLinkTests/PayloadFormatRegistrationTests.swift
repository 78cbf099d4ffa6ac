import JSON
import Testing

@testable import DeepLink

/// The registration of the format readers: each format is in `PayloadFormats.all` once, under its own case.
@Suite struct PayloadFormatRegistrationTests {
    @Test func everyFormatIsRegisteredOnce() {
        let registered = PayloadFormats.all.map(\.format)
        #expect(registered.count == Set(registered).count)
        #expect(Set(registered) == Set(PayloadFormat.allCases))
    }

    @Test(arguments: PayloadFormat.allCases)
    func aFormatsEntryIsItsReaders(format: PayloadFormat) {
        let entry = PayloadFormats.entry(for: format)
        #expect(entry.format == format)
        #expect(!entry.displayName.isEmpty)
        #expect(!entry.misfit.isEmpty)
    }

}
