"""Shared by every study: the plot style, deferred Ctrl-C and the output-folder probe."""
