// Varlink protocol: framing, messages, IDL.
