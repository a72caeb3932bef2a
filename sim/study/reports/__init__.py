"""Report folders: their files, writer, loader and checker, markdown, plots and replays."""
