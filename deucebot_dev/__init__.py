"""Development tools kept out of the product package: crash points for the crash tests."""
