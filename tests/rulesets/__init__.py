"""Rulesets that live outside game/, played through the same registry as the bundled ones."""
