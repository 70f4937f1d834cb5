"""Static resources (icons, stylesheet, the demo app's pages), installed as the `studio_resources` package."""
