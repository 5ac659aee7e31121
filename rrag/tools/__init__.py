"""Tools around the engine: the CLI, the verifier's evaluation (`rrag eval`), question sets (`rrag evaluate`), the demo, data locations."""
