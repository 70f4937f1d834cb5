"""Goal scenarios (seed 004): YAML goals an agent reaches in the browser, their validation and JSON Schema, the
information-architecture metrics of their runs, and the threshold gate over their results."""
