"""Shared by every study: the plot style, deferred Ctrl-C, the output-folder probe, the shared
settings and the report folder of a run over variants."""
