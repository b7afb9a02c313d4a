"""Git, hardened: every call the tool makes on a user's repository goes through here."""
