"""The data server under /_data/: user factory, programmatic login, reset scopes, flags, clock and config."""

from __future__ import annotations

import re
import time

import pyotp
import pytest
from pydantic import ValidationError

from studio.demo.flags import FlagError


async def test_health(api):
    async with api.get("/_data/health") as response:
        assert response.status == 200
        assert await response.json() == {"ok": True}


async def test_create_user_defaults_and_lookup(api):
    async with api.post("/_data/users", json={"plan": "premium", "requires2FA": False}) as response:
        assert response.status == 201
        user = await response.json()
    assert re.fullmatch(r"test\.[0-9a-f]{8}@example\.com", user["email"])
    assert user["password"] == "Password123!"
    assert (user["plan"], user["role"], user["requires2FA"], user["otpSecret"]) == ("premium", "viewer", False, None)
    assert user["userId"].startswith("usr_") and user["createdAt"].endswith("Z")
    for key in (user["userId"], user["email"], user["email"].upper()):
        async with api.get(f"/_data/users/{key}") as response:
            assert response.status == 200
            assert (await response.json())["userId"] == user["userId"]


async def test_two_factor_user_gets_a_working_totp_secret(api):
    async with api.post("/_data/users", json={"plan": "free", "requires2FA": True, "role": "admin"}) as response:
        user = await response.json()
    assert user["role"] == "admin" and user["requires2FA"] is True
    assert re.fullmatch(r"[A-Z2-7]{32}", user["otpSecret"])
    assert len(pyotp.TOTP(user["otpSecret"]).now()) == 6


async def test_seeded_user_ids_replay_after_reset(api):
    async def make() -> tuple[str, str]:
        async with api.post("/_data/users", json={}) as response:
            body = await response.json()
            return body["userId"], body["email"]

    first = [await make(), await make()]
    await api.post("/_data/reset", json={})
    assert [await make(), await make()] == first
    assert first[0] != first[1]


@pytest.mark.parametrize(
    ("body", "status", "fragment"),
    [
        ({"plan": "gold"}, 400, "'plan' must be one of: free, plus, premium"),
        ({"role": "root"}, 400, "'role' must be one of: viewer, admin"),
        ({"requires2FA": "yes"}, 400, "'requires2FA' must be true or false"),
        ({"email": "not-an-email"}, 400, "'email' must be an email address"),
    ],
)
async def test_create_user_rejects_bad_fields(api, body, status, fragment):
    async with api.post("/_data/users", json=body) as response:
        assert response.status == status
        assert fragment in (await response.json())["error"]


async def test_duplicate_email_is_409(api):
    await api.post("/_data/users", json={"email": "sam@example.com"})
    async with api.post("/_data/users", json={"email": "SAM@example.com"}) as response:
        assert response.status == 409
        assert (await response.json())["error"] == "A user with the email SAM@example.com already exists."


async def test_unknown_user_is_404_with_sentence(api):
    async with api.get("/_data/users/nobody@example.com") as response:
        assert response.status == 404
        assert "No user with id or email" in (await response.json())["error"]


@pytest.mark.parametrize("raw", [b"{not json", b"[1, 2]", b'"text"'])
async def test_malformed_json_is_400_with_sentence(api, raw):
    async with api.post("/_data/users", data=raw, headers={"Content-Type": "application/json"}) as response:
        assert response.status == 400
        error = (await response.json())["error"]
    assert error.endswith(".") and "JSON" in error


async def test_programmatic_login_without_2fa(api):
    async with api.post("/_data/users", json={"plan": "plus"}) as response:
        user = await response.json()
    async with api.post("/_data/login", json={"email": user["email"], "password": user["password"]}) as response:
        assert response.status == 200
        body = await response.json()
    assert body["token"] == body["session"]["token"]
    assert body["session"]["user"] == {
        "email": user["email"], "userId": user["userId"], "requires2FA": False, "role": "viewer", "plan": "plus",
    }
    async with api.get("/api/me", headers={"Authorization": f"Bearer {body['token']}"}) as response:
        assert response.status == 200
        assert (await response.json())["user"]["email"] == user["email"]


async def test_programmatic_login_errors_and_2fa(api):
    async with api.post("/_data/users", json={"requires2FA": True}) as response:
        user = await response.json()
    creds = {"email": user["email"], "password": user["password"]}
    async with api.post("/_data/login", json={**creds, "password": "nope"}) as response:
        assert response.status == 401
        assert (await response.json())["error"] == "Invalid email or password."
    async with api.post("/_data/login", json=creds) as response:
        assert response.status == 400
        assert "send the current TOTP code as 'otp'" in (await response.json())["error"]
    async with api.post("/_data/login", json={**creds, "otp": "000000"}) as response:
        assert response.status == 401
        assert "That code is not valid" in (await response.json())["error"]
    code = pyotp.TOTP(user["otpSecret"]).now()
    async with api.post("/_data/login", json={**creds, "otp": code}) as response:
        assert response.status == 200
        assert (await response.json())["session"]["user"]["requires2FA"] is True


async def test_reset_scopes(api, demo):
    user = demo.create_user(email="keep@example.com")
    demo.set_flag("new_cta_labels", True)
    await api.post("/_data/clock", json={"timestamp": 1_700_000_000_000})
    await api.post("/api/cart/add", json={"productId": "ipad-air"})
    demo.configure(seed=9)

    async with api.post("/_data/reset", json={"tenant": "qa", "scope": "users"}) as response:
        assert (await response.json())["ok"] is True
    async with api.get(f"/_data/users/{user['userId']}") as response:
        assert response.status == 404
    async with api.get("/_data/users/demo@example.com") as response:
        assert response.status == 200, "the built-in demo accounts come back after a reset"
    assert (await (await api.get("/_data/flags")).json())["flags"]["new_cta_labels"] is True
    assert (await (await api.get("/api/cart")).json())["cart"]["count"] == 1

    await api.post("/_data/reset", json={"scope": "carts"})
    assert (await (await api.get("/api/cart")).json())["cart"]["count"] == 0
    await api.post("/_data/reset", json={"scope": "flags"})
    assert (await (await api.get("/_data/flags")).json())["flags"]["new_cta_labels"] is False
    assert demo.state.clock.now_ms() == 1_700_000_000_000
    await api.post("/_data/reset", json={"scope": "clock"})
    assert abs(demo.state.clock.now_ms() - time.time() * 1000) < 5000
    assert (await (await api.get("/_data/config")).json())["config"]["seed"] == 9
    await api.post("/_data/reset", json={})
    assert (await (await api.get("/_data/config")).json())["config"]["seed"] == 1

    async with api.post("/_data/reset", json={"scope": "everything"}) as response:
        assert response.status == 400
        assert "'scope' must be one of: all, users, carts, flags, clock" in (await response.json())["error"]


async def test_flags_global_and_per_user(api, demo):
    async with api.get("/_data/flags") as response:
        assert await response.json() == {
            "flags": {"new_cta_labels": False, "alerts_route": "default", "dispute_phone_required": False},
            "userFlags": {},
        }
    user = demo.create_user()
    async with api.post("/_data/flags", json={"flag": "alerts_route", "value": "redirect"}) as response:
        assert (await response.json())["ok"] is True
    async with api.post("/_data/flags", json={"flag": "new_cta_labels", "value": True, "userId": user["email"]}) as r:
        assert r.status == 200
    body = await (await api.get("/_data/flags")).json()
    assert body["flags"]["alerts_route"] == "redirect"
    assert body["userFlags"] == {user["userId"]: {"new_cta_labels": True}}


@pytest.mark.parametrize(
    ("body", "status", "fragment"),
    [
        ({"flag": "dark_mode", "value": True}, 400,
         "Unknown flag 'dark_mode'. Known flags: alerts_route, dispute_phone_required, new_cta_labels."),
        ({"flag": "alerts_route", "value": "moved"}, 400, "must be one of: default, redirect, gone"),
        ({"flag": "new_cta_labels", "value": "yes"}, 400, "must be true or false"),
        ({"flag": "new_cta_labels"}, 400, "Send the 'value'"),
        ({"flag": "new_cta_labels", "value": True, "userId": "usr_missing"}, 404, "No user with id or email"),
    ],
)
async def test_flag_errors(api, body, status, fragment):
    async with api.post("/_data/flags", json=body) as response:
        assert response.status == status
        assert fragment in (await response.json())["error"]


async def test_clock_freeze_advance_and_unfreeze(api, demo):
    async with api.post("/_data/clock", json={"timestamp": 1_741_910_400_000}) as response:
        assert (await response.json())["now"] == 1_741_910_400_000
    async with api.post("/_data/clock", json={"advanceMs": 90_000}) as response:
        assert (await response.json())["now"] == 1_741_910_490_000
    async with api.post("/_data/clock", json={"timestamp": None}) as response:
        body = await response.json()
    assert body["frozen"] is False and abs(body["now"] - time.time() * 1000) < 5000
    async with api.post("/_data/clock", json={"advanceMs": 3_600_000}) as response:
        assert (await response.json())["now"] - time.time() * 1000 > 3_500_000, "advancing a running clock shifts it"
    for bad in ({}, {"timestamp": "noon"}, {"advanceMs": True}):
        async with api.post("/_data/clock", json=bad) as response:
            assert response.status == 400, bad


async def test_config_get_set_and_validation(api):
    async with api.get("/_data/config") as response:
        assert (await response.json())["config"] == {
            "seed": 1, "hydration_ms": [300, 900], "shuffle_products": True, "cart_latency_ms": [50, 250],
            "session_ttl_s": 900, "sign_in_latency_ms": 0, "game_fault": "none",
        }
    async with api.post("/_data/config", json={"seed": 42, "hydration_ms": [0, 10]}) as response:
        body = await response.json()
    assert body["ok"] is True and body["config"]["seed"] == 42 and body["config"]["hydration_ms"] == [0, 10]
    for bad in ({"game_fault": "explode"}, {"hydration_ms": [500, 100]}, {"session_ttl_s": 0}, {"colour": "red"}):
        async with api.post("/_data/config", json=bad) as response:
            assert response.status == 400, bad
            assert (await response.json())["error"].startswith("That config is not valid")


async def test_unknown_endpoint_and_wrong_method_answer_json(api):
    async with api.get("/_data/nothing") as response:
        assert response.status == 404
        assert (await response.json())["error"] == "There is no endpoint at /_data/nothing."
    async with api.delete("/_data/users") as response:
        assert response.status == 405
        assert "DELETE is not supported at /_data/users" in (await response.json())["error"]


def test_thread_helpers_validate_like_the_api(demo):
    with pytest.raises(ValidationError):
        demo.configure(game_fault="explode")
    with pytest.raises(FlagError):
        demo.set_flag("nope", True)
    demo.configure(seed=5, hydration_ms=(0, 0))
    assert demo.state.config.seed == 5 and demo.state.config.hydration_ms == (0, 0)
    user = demo.create_user(plan="free", requires_2fa=True, role="admin", email="thread@example.com")
    assert (user["email"], user["plan"], user["role"], user["requires2FA"]) == ("thread@example.com", "free", "admin", True)
    demo.reset()
    assert demo.state.config.seed == 1 and demo.state.find_user("thread@example.com") is None
