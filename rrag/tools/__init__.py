"""Tools around the engine: the CLI, the verifier's evaluation (`rrag eval`), its behavioural checklist
(`rrag checklist`), question sets (`rrag evaluate`), the demo, data locations."""
