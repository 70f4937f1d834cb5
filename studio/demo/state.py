"""The demo app's in-memory world: users, sessions, carts, flags, the server clock, alerts and disputes."""

from __future__ import annotations

import random
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Literal

import pyotp

from studio.demo.catalog import ALERT_TEMPLATES, PRODUCTS_BY_ID
from studio.demo.config import DemoConfig
from studio.demo.flags import FLAG_DEFAULTS, validate_flag

DEFAULT_PASSWORD = "Password123!"
REFRESH_TTL_MS = 24 * 3600 * 1000
CHALLENGE_TTL_MS = 5 * 60 * 1000
ResetScope = Literal["all", "users", "carts", "flags", "clock"]
RESET_SCOPES: tuple[str, ...] = ("all", "users", "carts", "flags", "clock")


class DemoClock:
    """The server's notion of now; tests freeze or advance it to make expiry and shown dates deterministic."""

    def __init__(self) -> None:
        self.frozen_ms: int | None = None
        self.offset_ms = 0

    def now_ms(self) -> int:
        if self.frozen_ms is not None:
            return self.frozen_ms
        return int(time.time() * 1000) + self.offset_ms

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.now_ms() / 1000, tz=timezone.utc)

    def freeze(self, timestamp_ms: int | None) -> None:
        """Stop the clock at `timestamp_ms`, or let it run in real time again when None."""
        self.frozen_ms = timestamp_ms
        self.offset_ms = 0

    def advance(self, delta_ms: int) -> None:
        if self.frozen_ms is not None:
            self.frozen_ms += delta_ms
        else:
            self.offset_ms += delta_ms


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class User:
    """A member of the demo app, as created by the data server."""

    user_id: str
    email: str
    password: str
    plan: str
    role: str
    requires_2fa: bool
    otp_secret: str | None
    created_ms: int
    display_name: str = ""
    avatar: tuple[str, str, bytes] | None = None  # filename, content type, bytes

    def as_json(self) -> dict[str, Any]:
        return {
            "userId": self.user_id,
            "email": self.email,
            "password": self.password,
            "plan": self.plan,
            "role": self.role,
            "requires2FA": self.requires_2fa,
            "otpSecret": self.otp_secret,
            "createdAt": iso(self.created_ms),
            "displayName": self.display_name,
        }

    def summary(self) -> dict[str, Any]:
        return {
            "email": self.email,
            "userId": self.user_id,
            "requires2FA": self.requires_2fa,
            "role": self.role,
            "plan": self.plan,
        }


@dataclass
class Session:
    """A signed-in browser or API client; it stays known after expiry so pages can say it expired."""

    token: str
    refresh_token: str
    user_id: str
    expires_ms: int


@dataclass
class Alert:
    """A notification in a member's alert centre."""

    id: str
    category: str
    title: str
    body: str
    created_ms: int
    read: bool = False
    dismissed: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "category": self.category,
            "title": self.title,
            "body": self.body,
            "createdAt": iso(self.created_ms),
            "read": self.read,
        }


@dataclass
class Dispute:
    """A dispute a member filed against an item on the credit file."""

    reference: str
    account_id: str
    reason: str
    description: str
    amount: float
    phone: str | None
    created_ms: int
    status: str = "Under review"

    def as_json(self) -> dict[str, Any]:
        return {
            "reference": self.reference,
            "accountId": self.account_id,
            "reason": self.reason,
            "description": self.description,
            "amount": self.amount,
            "phone": self.phone,
            "createdAt": iso(self.created_ms),
            "status": self.status,
        }


@dataclass
class Counters:
    """Monotonic counters that, with the seed, make every simulated delay and generated id replayable."""

    users: int = 0
    product_loads: int = 0
    cart_adds: int = 0
    disputes: int = 0


class DuplicateEmail(ValueError):
    """A user with this email already exists."""


class DemoState:
    """Everything the demo app remembers; owned by the server's event loop (not thread-safe on its own)."""

    def __init__(self, config: DemoConfig | None = None) -> None:
        self.default_config = (config or DemoConfig()).model_copy()
        self.config = self.default_config.model_copy()
        self.clock = DemoClock()
        self.reset("all")

    # ---- reset -----------------------------------------------------------------------------------------
    def reset(self, scope: str = "all") -> None:
        """Forget the given part of the world; "all" also puts the config knobs back to their defaults."""
        if scope in ("all", "users"):
            self.users: dict[str, User] = {}
            self.sessions: dict[str, Session] = {}
            self.challenges: dict[str, tuple[str, int]] = {}
            self.alerts: dict[str, list[Alert]] = {}
            self.disputes: dict[str, list[Dispute]] = {}
            self.applications: dict[str, set[str]] = {}
            self.user_flags: dict[str, dict[str, Any]] = {}
            self._seed_builtin_users()
        if scope in ("all", "carts"):
            self.carts: dict[str, dict[str, int]] = {}
        if scope in ("all", "flags"):
            self.flags: dict[str, Any] = dict(FLAG_DEFAULTS)
            self.user_flags = {}
        if scope in ("all", "clock"):
            self.clock.freeze(None)
        if scope == "all":
            self.config = self.default_config.model_copy()
            self.counters = Counters()
            self.game_scores: list[dict[str, Any]] = []
            self.arcade_faults: frozenset[str] = frozenset()  # the arcade's fault knobs (arcade_routes)

    def _seed_builtin_users(self) -> None:
        # Two fixed accounts so a person exploring `studio serve-demo` can sign in without the data API.
        now = self.clock.now_ms()
        for user in (
            User("usr_demo", "demo@example.com", DEFAULT_PASSWORD, "plus", "viewer", False, None, now, "Jordan Lee"),
            User("usr_admin", "admin@example.com", DEFAULT_PASSWORD, "premium", "admin", False, None, now, "Avery Admin"),
        ):
            self.users[user.user_id] = user

    # ---- users -----------------------------------------------------------------------------------------
    def create_user(
        self,
        plan: str = "plus",
        requires_2fa: bool = False,
        role: str = "viewer",
        email: str | None = None,
        password: str | None = None,
    ) -> User:
        """Create a member; ids and default emails come from the seed so a replayed run sees the same ones."""
        if email and self.find_user(email):
            raise DuplicateEmail(f"A user with the email {email} already exists.")
        self.counters.users += 1
        rng = random.Random(f"user:{self.config.seed}:{self.counters.users}")
        user_id = f"usr_{rng.getrandbits(48):012x}"
        if not email:
            email = f"test.{rng.getrandbits(32):08x}@example.com"
            while self.find_user(email):
                email = f"test.{rng.getrandbits(32):08x}@example.com"
        user = User(
            user_id=user_id,
            email=email,
            password=password or DEFAULT_PASSWORD,
            plan=plan,
            role=role,
            requires_2fa=requires_2fa,
            otp_secret=pyotp.random_base32() if requires_2fa else None,
            created_ms=self.clock.now_ms(),
            display_name=email.split("@")[0].replace(".", " ").title(),
        )
        self.users[user.user_id] = user
        return user

    def find_user(self, key: str) -> User | None:
        """A user by id or (case-insensitive) email."""
        if key in self.users:
            return self.users[key]
        lowered = key.strip().lower()
        return next((u for u in self.users.values() if u.email.lower() == lowered), None)

    def check_otp(self, user: User, code: str) -> bool:
        """True when `code` is the user's TOTP for now or the previous 30 s window, on the server clock."""
        if not user.otp_secret:
            return False
        code = "".join(ch for ch in str(code) if not ch.isspace())
        return pyotp.TOTP(user.otp_secret).verify(code, for_time=self.clock.now_ms() // 1000, valid_window=1)

    # ---- sessions --------------------------------------------------------------------------------------
    def open_session(self, user: User) -> Session:
        session = Session(
            token=secrets.token_urlsafe(24),
            refresh_token=secrets.token_urlsafe(24),
            user_id=user.user_id,
            expires_ms=self.clock.now_ms() + self.config.session_ttl_s * 1000,
        )
        self.sessions[session.token] = session
        return session

    def session_json(self, session: Session) -> dict[str, Any]:
        return {
            "token": session.token,
            "refreshToken": session.refresh_token,
            "expiresAt": session.expires_ms,
            "user": self.users[session.user_id].summary(),
        }

    def lookup_session(self, token: str | None) -> tuple[Session | None, bool]:
        """The session for a token and whether it has expired; (None, False) for an unknown token."""
        session = self.sessions.get(token or "")
        if session is None or session.user_id not in self.users:
            return None, False
        return session, session.expires_ms <= self.clock.now_ms()

    def refresh_session(self, refresh_token: str) -> Session | None:
        """Swap a refresh token for a new session; refresh tokens outlive the session by a day."""
        old = next((s for s in self.sessions.values() if s.refresh_token == refresh_token), None)
        if old is None or old.user_id not in self.users:
            return None
        if old.expires_ms - self.config.session_ttl_s * 1000 + REFRESH_TTL_MS <= self.clock.now_ms():
            return None
        del self.sessions[old.token]
        return self.open_session(self.users[old.user_id])

    def close_session(self, token: str | None) -> None:
        self.sessions.pop(token or "", None)

    def open_challenge(self, user: User) -> str:
        challenge_id = secrets.token_urlsafe(16)
        self.challenges[challenge_id] = (user.user_id, self.clock.now_ms() + CHALLENGE_TTL_MS)
        return challenge_id

    def challenge_user(self, challenge_id: str) -> User | None:
        user_id, expires_ms = self.challenges.get(challenge_id, ("", 0))
        if expires_ms <= self.clock.now_ms():
            return None
        return self.users.get(user_id)

    # ---- flags -----------------------------------------------------------------------------------------
    def set_flag(self, flag: str, value: Any, user_id: str | None = None) -> None:
        value = validate_flag(flag, value)
        if user_id is None:
            self.flags[flag] = value
        else:
            self.user_flags.setdefault(user_id, {})[flag] = value

    def flags_for(self, user_id: str | None) -> dict[str, Any]:
        """Global flags with the user's own overrides on top."""
        return {**self.flags, **self.user_flags.get(user_id or "", {})}

    # ---- carts -----------------------------------------------------------------------------------------
    def cart(self, cart_id: str | None) -> dict[str, int]:
        return self.carts.get(cart_id or "", {})

    def add_to_cart(self, cart_id: str, product_id: str) -> dict[str, int]:
        items = self.carts.setdefault(cart_id, {})
        items[product_id] = items.get(product_id, 0) + 1
        return items

    def cart_json(self, cart_id: str | None) -> dict[str, Any]:
        items = self.cart(cart_id)
        rows = [
            {
                "productId": pid,
                "name": PRODUCTS_BY_ID[pid].name,
                "quantity": qty,
                "price": PRODUCTS_BY_ID[pid].price_cents / 100,
            }
            for pid, qty in items.items()
        ]
        total = sum(PRODUCTS_BY_ID[pid].price_cents * qty for pid, qty in items.items())
        return {"count": sum(items.values()), "items": rows, "total": total / 100}

    # ---- alerts and disputes ---------------------------------------------------------------------------
    def alerts_for(self, user_id: str) -> list[Alert]:
        """The member's alerts, created on first sight with dates relative to the server clock."""
        if user_id not in self.alerts:
            now = self.clock.now_ms()
            self.alerts[user_id] = [
                Alert(f"alrt_{i + 1}", t.category, t.title, t.body, now - t.age_minutes * 60_000, t.read)
                for i, t in enumerate(ALERT_TEMPLATES)
            ]
        return [a for a in self.alerts[user_id] if not a.dismissed]

    def file_dispute(self, user_id: str, **fields: Any) -> Dispute:
        self.counters.disputes += 1
        now = self.clock.now_ms()
        reference = f"DSP-{iso(now)[:10].replace('-', '')}-{self.counters.disputes:04d}"
        dispute = Dispute(reference=reference, created_ms=now, **fields)
        self.disputes.setdefault(user_id, []).append(dispute)
        return dispute

    # ---- seeded simulation -----------------------------------------------------------------------------
    def next_hydration_delay_ms(self, seed: int) -> int:
        self.counters.product_loads += 1
        low, high = self.config.hydration_ms
        return random.Random(f"hydrate:{seed}:{self.counters.product_loads}").randint(low, high)

    def next_cart_latency_ms(self) -> int:
        self.counters.cart_adds += 1
        low, high = self.config.cart_latency_ms
        return random.Random(f"cart:{self.config.seed}:{self.counters.cart_adds}").randint(low, high)


def product_order(seed: int, shuffle: bool) -> list[str]:
    """Product ids in the order the API returns them: alphabetical, or a shuffle fixed by the seed."""
    ids = sorted(PRODUCTS_BY_ID, key=lambda pid: PRODUCTS_BY_ID[pid].name.casefold())
    if shuffle:
        random.Random(f"products:{seed}").shuffle(ids)
    return ids

