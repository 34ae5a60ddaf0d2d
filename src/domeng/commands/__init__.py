"""The sub-commands of `domeng`, one module each."""
