import Testing

@testable import NotifyDaemon

/// ``DeviceStateCache`` holds what a dictionary of the same assignments holds, whether an assignment follows a
/// ``DeviceStateCache/find(_:)`` of its device (replaced in place) or not.
@Suite struct DeviceStateCacheTests {
    /// A small xorshift generator: the same sequence of operations on every run.
    struct Numbers {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
    }

    static func entry(_ generation: Int) -> CachedState { CachedState(state: nil, generation: generation) }

    static func expectSame(
        _ cache: DeviceStateCache, _ model: [String: Int], devices: [String], after step: Int
    ) {
        #expect(cache.count == model.count, "count after step \(step)")
        for device in devices {
            #expect(cache[device]?.generation == model[device], "\(device) after step \(step)")
            #expect(cache.contains(device) == (model[device] != nil), "\(device) after step \(step)")
        }
    }

    @Test func aStateReplacedAfterItsLookupLandsOnItsDevice() {
        var cache = DeviceStateCache()
        cache["a"] = Self.entry(1)
        cache["b"] = Self.entry(2)
        #expect(cache.find("a")?.generation == 1)
        cache["a"] = Self.entry(3)
        #expect(cache["a"]?.generation == 3)
        #expect(cache["b"]?.generation == 2)
        #expect(cache.count == 2)
        // Found, then another device assigned: the place found is not used for it.
        #expect(cache.find("b")?.generation == 2)
        cache["a"] = Self.entry(4)
        #expect(cache["a"]?.generation == 4)
        #expect(cache["b"]?.generation == 2)
    }

    /// Lookups, assignments after lookups, assignments of other devices in between (growing the table past
    /// several resizes), removals and emptying, in a random order, against a dictionary.
    @Test func itHoldsWhatADictionaryHolds() {
        var numbers = Numbers(state: 0x9E37_79B9_7F4A_7C15)
        let devices = (0..<300).map { "device-\($0)" } + ["a-device-name-longer-than-fifteen-bytes", "é"]
        var cache = DeviceStateCache()
        var model: [String: Int] = [:]
        for step in 0..<20_000 {
            let device = devices[numbers.next(devices.count)]
            switch numbers.next(10) {
            case 0...3:
                // The routing path: look the device up, maybe assign others, then assign it.
                #expect(cache.find(device)?.generation == model[device], "find \(device) at step \(step)")
                if numbers.next(4) == 0 {
                    let other = devices[numbers.next(devices.count)]
                    if numbers.next(3) == 0 {
                        cache[other] = nil
                        model[other] = nil
                    } else {
                        cache[other] = Self.entry(-step)
                        model[other] = -step
                    }
                }
                cache[device] = Self.entry(step)
                model[device] = step
            case 4...6:
                cache[device] = Self.entry(step)
                model[device] = step
            case 7, 8:
                _ = cache.find(device)
                cache[device] = nil
                model[device] = nil
            default:
                if numbers.next(50) == 0 {
                    _ = cache.find(device)
                    cache.removeAll()
                    model.removeAll()
                }
            }
            if step % 97 == 0 { Self.expectSame(cache, model, devices: devices, after: step) }
        }
        Self.expectSame(cache, model, devices: devices, after: 20_000)
    }
}
