"""Suite-wide fixtures. Nothing here (or anywhere in tests/) touches the network."""
