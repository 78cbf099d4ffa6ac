print("notifyctl: not yet")
