extension SwiftGenerator {
    /// How the generated file reads a decision's JSON: `Decodable` conformances of `NotifydDecision`, its `Pending`,
    /// `NotifydStep`, `NotifydCoordinator` and `AppLink` (the page object of the contract), the same for every config.
    ///
    /// Pages are built by `AppLink(id:arguments:)` from the arguments written as links write them, so every parameter
    /// type the link tables know is read the same way. Standard-library and Foundation names are written in full
    /// (`Swift.Decoder`), so that a config's type, coordinator or page of the same name does not hide them.
    static func decisionDecoding(access a: String) -> String {
        #"""
        extension NotifydDecision: Swift.Decodable {
            /// Reads a decision from its JSON text.
            \#(a)init(json: Foundation.Data) throws {
                self = try Foundation.JSONDecoder().decode(NotifydDecision.self, from: json)
            }

            /// Reads the decision object of notifyd's JSON; keys it does not use are ignored.
            \#(a)init(from decoder: any Swift.Decoder) throws {
                let container = try decoder.container(keyedBy: NotifydKey.self)
                let outcome = try container.decode(String.self, forKey: NotifydKey("outcome"))
                guard let known = Outcome(rawValue: outcome) else {
                    throw NotifydDecisionError.unknownOutcome(
                        outcome, path: NotifydKey.path(container.codingPath + [NotifydKey("outcome")]))
                }
                self.init(
                    id: try container.decode(String.self, forKey: NotifydKey("id")),
                    device: try container.decodeIfPresent(String.self, forKey: NotifydKey("device")),
                    outcome: known,
                    page: try container.decodeIfPresent(AppLink.self, forKey: NotifydKey("page")),
                    path: try container.decode([NotifydCoordinator].self, forKey: NotifydKey("path")),
                    steps: try container.decode([NotifydStep].self, forKey: NotifydKey("steps")),
                    pending: try container.decodeIfPresent(Pending.self, forKey: NotifydKey("pending")))
            }
        }

        extension NotifydDecision.Pending: Swift.Decodable {
            /// Reads `{"page", "gate", "condition", "expiresAt"}`; `expiresAt` is RFC 3339.
            \#(a)init(from decoder: any Swift.Decoder) throws {
                let container = try decoder.container(keyedBy: NotifydKey.self)
                let expiry = try container.decode(String.self, forKey: NotifydKey("expiresAt"))
                let formatter = Foundation.ISO8601DateFormatter()
                formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                let withoutFraction = Foundation.ISO8601DateFormatter()
                guard let expiresAt = formatter.date(from: expiry) ?? withoutFraction.date(from: expiry) else {
                    throw Swift.DecodingError.dataCorruptedError(
                        forKey: NotifydKey("expiresAt"), in: container,
                        debugDescription: "'\(expiry)' is not an RFC 3339 time")
                }
                self.init(
                    page: try container.decode(AppLink.self, forKey: NotifydKey("page")),
                    gate: try container.decode(NotifydCoordinator.self, forKey: NotifydKey("gate")),
                    condition: try container.decode(String.self, forKey: NotifydKey("condition")),
                    expiresAt: expiresAt)
            }
        }

        extension NotifydStep: Swift.Decodable {
            /// Reads a step: `{"action", "coordinator"}` with the `child`, `parent` or page (`pageId`, `arguments`)
            /// its action needs.
            \#(a)init(from decoder: any Swift.Decoder) throws {
                let container = try decoder.container(keyedBy: NotifydKey.self)
                let action = try container.decode(String.self, forKey: NotifydKey("action"))
                let coordinator = try container.decode(NotifydCoordinator.self, forKey: NotifydKey("coordinator"))
                func other(_ key: String) throws -> NotifydCoordinator {
                    try container.decode(NotifydCoordinator.self, forKey: NotifydKey(key))
                }
                func page() throws -> AppLink {
                    guard container.contains(NotifydKey("pageId")) else {
                        let description = try container.decodeIfPresent(String.self, forKey: NotifydKey("page"))
                        throw NotifydDecisionError.pageWithoutID(
                            description ?? "", path: NotifydKey.path(container.codingPath))
                    }
                    return try AppLink.decoded(container, idKey: "pageId")
                }
                switch action {
                case "start": self = .start(coordinator, in: try other("parent"))
                case "activate": self = .activate(coordinator)
                case "selectTab": self = .selectTab(coordinator, tab: try other("child"))
                case "present": self = .present(coordinator, over: try other("parent"))
                case "dismiss": self = .dismiss(coordinator)
                case "popTo": self = .popTo(try page(), in: coordinator)
                case "push": self = .push(try page(), in: coordinator)
                case "setRoot": self = .setRoot(try page(), in: coordinator)
                case "display": self = .display(try page(), in: coordinator)
                default:
                    throw NotifydDecisionError.unknownAction(
                        action, path: NotifydKey.path(container.codingPath + [NotifydKey("action")]))
                }
            }
        }

        extension NotifydCoordinator: Swift.Decodable {
            /// Reads a coordinator's name.
            \#(a)init(from decoder: any Swift.Decoder) throws {
                let name = try decoder.singleValueContainer().decode(String.self)
                guard let coordinator = NotifydCoordinator(name: name) else {
                    throw NotifydDecisionError.unknownCoordinator(name, path: NotifydKey.path(decoder.codingPath))
                }
                self = coordinator
            }
        }

        extension AppLink: Swift.Decodable {
            /// Reads the page object of notifyd's decisions, `{"id", "arguments", "description"}`, as
            /// `init(id:arguments:)` reads an id and arguments.
            \#(a)init(from decoder: any Swift.Decoder) throws {
                self = try AppLink.decoded(try decoder.container(keyedBy: NotifydKey.self), idKey: "id")
            }

            /// The page whose id is at `idKey` in `container` and whose arguments are at `arguments`.
            fileprivate static func decoded(
                _ container: Swift.KeyedDecodingContainer<NotifydKey>, idKey: String
            ) throws -> AppLink {
                let id = try container.decode(String.self, forKey: NotifydKey(idKey))
                var arguments: [String: [String]] = [:]
                if container.contains(NotifydKey("arguments")) {
                    let values = try container.nestedContainer(keyedBy: NotifydKey.self, forKey: NotifydKey("arguments"))
                    // An array is read as a list only for a list parameter: anywhere else it is no argument at all.
                    let kinds = Routing.pages.first(where: { $0.id == id }).map {
                        Dictionary(uniqueKeysWithValues: Swift.zip($0.labels, $0.kinds))
                    }
                    for key in values.allKeys {
                        var isList = false
                        if case .list = kinds?[key.stringValue] { isList = true }
                        arguments[key.stringValue] = try linkTexts(values, key, isList: isList)
                    }
                }
                if let page = AppLink(id: id, argumentLists: arguments) { return page }
                guard Routing.pages.contains(where: { $0.id == id }) else {
                    throw NotifydDecisionError.unknownPage(
                        id, path: NotifydKey.path(container.codingPath + [NotifydKey(idKey)]))
                }
                throw NotifydDecisionError.argumentsDoNotFit(
                    page: id, path: NotifydKey.path(container.codingPath + [NotifydKey("arguments")]))
            }

            /// An argument as links write it, as a list: a list's items (an array, or a lone value as one item), or
            /// the one value of any other argument; a string as it is, a Boolean or a number as its JSON text.
            fileprivate static func linkTexts(
                _ values: Swift.KeyedDecodingContainer<NotifydKey>, _ key: NotifydKey, isList: Bool
            ) throws -> [String] {
                guard isList, var items = try? values.nestedUnkeyedContainer(forKey: key) else {
                    return [try linkText(try values.superDecoder(forKey: key).singleValueContainer())]
                }
                var texts: [String] = []
                while !items.isAtEnd { texts.append(try linkText(try items.superDecoder().singleValueContainer())) }
                return texts
            }

            /// One value as links write it.
            fileprivate static func linkText(_ value: any Swift.SingleValueDecodingContainer) throws -> String {
                if let text = try? value.decode(String.self) { return text }
                if let flag = try? value.decode(Bool.self) { return flag ? "true" : "false" }
                if let number = try? value.decode(Int.self) { return String(number) }
                if let number = try? value.decode(Swift.Double.self) { return String(number) }
                throw Swift.DecodingError.typeMismatch(
                    String.self,
                    Swift.DecodingError.Context(
                        codingPath: value.codingPath,
                        debugDescription: "a page argument is a string, a number, a Boolean or a list of them"))
            }
        }

        /// A key of a decision's JSON.
        fileprivate struct NotifydKey: Swift.CodingKey {
            let stringValue: String
            var intValue: Int? { nil }

            init(_ name: String) {
                stringValue = name
            }

            init(stringValue: String) {
                self.stringValue = stringValue
            }

            init?(intValue: Int) {
                return nil
            }

            /// `$.steps[5].pageId`: where `codingPath` is in the decision's JSON.
            static func path(_ codingPath: [any Swift.CodingKey]) -> String {
                codingPath.reduce("$") { path, key in
                    key.intValue.map { path + "[\($0)]" } ?? path + "." + key.stringValue
                }
            }
        }

        """#
    }
}
