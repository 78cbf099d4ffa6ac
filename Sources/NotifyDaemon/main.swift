print("notifyd: not yet")
