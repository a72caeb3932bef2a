"""The quacks command line."""
