"""The embedded demo app (Lumen Credit): the realistic, deterministic target every feature and test runs against,
and the guided tour `studio demo` runs on it."""
