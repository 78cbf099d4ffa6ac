import Testing

@testable import NotifyDaemon

@Suite struct StoreSelectionTests {
    @Test func storeFlagSelectsPostgreSQLOverTheSystemdStateDirectory() throws {
        let settings = try Settings.parse(
            ["--config", "c", "--store", "host=/run/postgresql dbname=notifyd"],
            environment: ["STATE_DIRECTORY": "/var/lib/notifyd"])
        #expect(settings.storeURL == "host=/run/postgresql dbname=notifyd")
        #expect(settings.stateDirectory == nil)
    }

    @Test func environmentNamesTheStoreWhenTheFlagDoesNot() throws {
        let settings = try Settings.parse(
            ["--config", "c"], environment: ["NOTIFYD_STORE": "postgresql://notifyd@db/notifyd"])
        #expect(settings.storeURL == "postgresql://notifyd@db/notifyd")
        let flag = try Settings.parse(
            ["--config", "c", "--store", "postgresql:///a"], environment: ["NOTIFYD_STORE": "postgresql:///b"])
        #expect(flag.storeURL == "postgresql:///a")
    }

    @Test func storeAndStateDirectoryTogetherAreRefused() {
        #expect(throws: Settings.UsageError.self) {
            try Settings.parse(
                ["--config", "c", "--store", "postgresql:///a", "--state-dir", "/tmp/s"], environment: [:])
        }
    }

    @Test(arguments: [
        ("postgresql://notifyd:secret@db.example.org:5432/notifyd", "postgresql://notifyd@db.example.org:5432/notifyd"),
        ("postgresql://notifyd@db.example.org/notifyd", "postgresql://notifyd@db.example.org/notifyd"),
        ("postgresql:///notifyd?host=/run/postgresql", "postgresql:///notifyd?host=/run/postgresql"),
        ("host=db dbname=notifyd password=secret user=n", "host=db dbname=notifyd user=n"),
    ])
    func connectionStringsAreShownWithoutTheirPassword(conninfo: String, shown: String) {
        #expect(PGConnection.withoutPassword(conninfo) == shown)
    }
}
