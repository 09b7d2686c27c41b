"""The scenario designer workspace: new game, catalogs, options, factions and starts on the
map, validation, and the text scenario file (issue 7)."""
