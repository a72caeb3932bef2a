"""The release of this copy of quacks-sim (``sim.__version__``), in a module of its own so that
every layer can read it without importing the package's front door (``sim``, which exposes the
Python API)."""

__version__ = "0.1.0"
