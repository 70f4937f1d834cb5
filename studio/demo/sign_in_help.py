"""How a person exploring the demo app by hand signs in: the built-in account, a two-factor account that
`studio serve-demo` adds, and where the current one-time code of such an account is read (the data server)."""

from __future__ import annotations

from dataclasses import dataclass

import pyotp

from studio.demo.state import DEFAULT_PASSWORD, DemoState, User

DEMO_EMAIL = "demo@example.com"  # built in (state.py): signs in without a code
TWO_FACTOR_EMAIL = "totp@example.com"  # added by `studio serve-demo`: asks for a one-time code
TOTP_STEP_S = 30


def code_path(email: str) -> str:
    """Where the data server answers an account's current one-time code."""
    return f"/_data/users/{email}/otp"


@dataclass(frozen=True)
class SignInHelp:
    """What the login page's "Demo account" hint says."""

    email: str
    password: str
    two_factor_email: str | None  # None until a two-factor account like serve-demo's exists
    two_factor_code: str | None = None  # its code when the page was made (the sign-in also takes the previous one)

    @property
    def two_factor_code_path(self) -> str:
        return code_path(self.two_factor_email or "EMAIL")


def sign_in_help(state: DemoState) -> SignInHelp:
    two_factor = state.find_user(TWO_FACTOR_EMAIL)
    if two_factor is None or not two_factor.otp_secret:
        return SignInHelp(DEMO_EMAIL, DEFAULT_PASSWORD, None)
    return SignInHelp(DEMO_EMAIL, DEFAULT_PASSWORD, two_factor.email, current_code(state, two_factor)[0])


def add_two_factor_account(state: DemoState) -> User:
    """The account `studio serve-demo` adds, so the one-time-code step can be tried by hand."""
    return state.find_user(TWO_FACTOR_EMAIL) or state.create_user("plus", True, "viewer", TWO_FACTOR_EMAIL)


def current_code(state: DemoState, user: User) -> tuple[str, int]:
    """The account's one-time code now (on the demo's clock, as the sign-in checks it) and its seconds left."""
    now_s = state.clock.now_ms() // 1000
    return pyotp.TOTP(user.otp_secret or "").at(now_s), TOTP_STEP_S - now_s % TOTP_STEP_S


def sign_in_lines(base_url: str, two_factor: User) -> list[str]:
    """What `studio serve-demo` prints under the address: who to sign in as, and how to get the code."""
    return [
        f"Sign in at {base_url}/login as {DEMO_EMAIL}, password {DEFAULT_PASSWORD} (no code is asked;",
        "  admin@example.com has the same password and the admin role).",
        f"With a one-time code (TOTP): {two_factor.email}, password {two_factor.password};",
        f"  the current code: curl {base_url}{code_path(two_factor.email)}",
        f"  (or add the secret {two_factor.otp_secret} to an authenticator app).",
    ]
