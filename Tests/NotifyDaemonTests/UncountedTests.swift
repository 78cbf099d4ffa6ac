import Testing

@testable import NotifyDaemon

/// ``Uncounted`` holds its object without keeping it alive; debug builds, which run the tests, stop on a use after the
/// object was freed rather than read freed memory.
@Suite struct UncountedTests {
    final class Object {
        var number = 0
    }

    @Test func itDoesNotKeepItsObjectAlive() {
        weak var gone: Object?
        var reference: Uncounted<Object>?
        do {
            let object = Object()
            object.number = 7
            reference = Uncounted(object)
            gone = object
            #expect(reference?.value.number == 7)
        }
        #expect(gone == nil)
        _ = reference
    }

    @Test func aUseAfterTheObjectWasFreedStopsAndSaysWhy() async throws {
        let result = try await #require(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            var object: Object? = Object()
            let reference = Uncounted(object!)
            object = nil
            _ = reference.value.number
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Object used after it was freed"), "\(message)")
    }
}
