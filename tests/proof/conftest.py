from tests.race.conftest import race, runner  # noqa: F401  (shared fixtures)
