"""Built-in rulesets, one package each."""
