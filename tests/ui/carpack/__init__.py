"""A small activity that declares per-car questions: the wizard is tested with it."""
