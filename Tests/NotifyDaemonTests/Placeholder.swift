import Testing

@Suite struct PlaceholderNotifyDaemonTests {}
