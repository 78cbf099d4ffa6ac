import DeepLink
import Foundation
import JSON
import Testing

/// The files under `examples/payloads` stay valid and say what their README promises.
@Suite struct PayloadExamplesTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples/payloads")

    @Test(arguments: [
        ("apns-offer.json", PayloadFormat.apns, "deeplink", "shop://offers/SUMMER"),
        ("apns-category.json", .apns, "aps.category", #"account.order(id: "4711")"#),
        ("fcm-v1.json", .fcm, "message.data.deeplink", "shop://cart/checkout"),
        ("fcm-legacy.json", .fcmLegacy, "data.link", "shop://products/trail-runner-2"),
        ("ntfy.json", .ntfy, "click", "shop://account/orders/4711"),
        (
            "gotify.json", .gotify, #"extras["client::notification"].click.url"#,
            "https://shop.example.com/products/trail-runner-2"
        ),
        ("link.txt", .link, "$", "shop://offers/SUMMER"),
    ])
    func examplePayloadReadsAsDocumented(file: String, format: PayloadFormat, field: String, target: String) throws {
        let data = try Data(contentsOf: PayloadExamplesTests.directory.appendingPathComponent(file))
        let reading = try PayloadReader(options: try shopPayloadOptions(strict: true)).read(bytes: [UInt8](data))
        #expect(reading.format == format)
        #expect(reading.candidates.first?.field == field)
        #expect(reading.candidates.first?.target.description == target)
        #expect(reading.warnings.isEmpty)
    }
}
