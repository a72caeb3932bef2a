"""Python entry points over the kernel: potions, games, exact odds, scripted rounds."""
