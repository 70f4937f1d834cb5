"""Signing in through the real login page (with and without TOTP), session expiry, sign-out, refresh and roles."""

from __future__ import annotations

import re

import pyotp
from playwright.async_api import expect

FROZEN_MS = 1_741_910_400_000  # 2025-03-14 00:00:00 UTC


async def fill_login(page, email: str, password: str) -> None:
    await page.get_by_label("Email").fill(email)
    await page.get_by_label("Password").fill(password)
    await page.get_by_role("button", name="Sign in").click()


async def test_login_without_2fa_lands_on_dashboard(demo, page):
    user = demo.create_user()
    await page.goto(demo.base_url + "/")
    await expect(page).to_have_url(re.compile(r"/login\?next=/dashboard$"))
    await expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")
    await fill_login(page, user["email"], user["password"])
    await expect(page).to_have_url(demo.base_url + "/dashboard")
    await expect(page.get_by_test_id("welcome-message")).to_have_text(f"Welcome back, {user['email']}")
    cookie = next(c for c in await page.context.cookies() if c["name"] == "demo_session")
    assert cookie["httpOnly"] is True


async def test_login_with_totp_second_step(demo, page):
    user = demo.create_user(requires_2fa=True)
    await page.goto(demo.base_url + "/login?next=/credit-report")
    await fill_login(page, user["email"], user["password"])
    await expect(page.get_by_role("heading", name="Two-factor authentication", level=2)).to_be_visible()
    otp = page.get_by_label("Authentication code")
    await expect(otp).to_have_attribute("inputmode", "numeric")
    await expect(otp).to_have_attribute("autocomplete", "one-time-code")
    await expect(otp).to_have_attribute("data-testid", "otp-input")
    await otp.fill(pyotp.TOTP(user["otpSecret"]).now())
    await page.get_by_role("button", name="Verify").click()
    await expect(page).to_have_url(demo.base_url + "/credit-report")
    await expect(page.get_by_role("heading", level=1)).to_have_text("Credit Report")


async def test_wrong_password_and_wrong_code_messages(demo, page):
    user = demo.create_user(requires_2fa=True)
    await page.goto(demo.base_url + "/login")
    await fill_login(page, user["email"], "wrong-password")
    alert = page.get_by_role("alert")
    await expect(alert).to_have_text("Invalid email or password.")
    await expect(page.get_by_label("Password")).to_have_attribute("aria-invalid", "true")
    await page.get_by_label("Password").fill(user["password"])
    await page.get_by_role("button", name="Sign in").click()
    await page.get_by_label("Authentication code").fill("000000")
    await page.get_by_role("button", name="Verify").click()
    await expect(alert).to_have_text("That code is not valid. Check your authenticator app and try again.")
    await expect(page).to_have_url(re.compile(r"/login"))


async def test_empty_fields_are_explained(demo, page):
    await page.goto(demo.base_url + "/login")
    await page.get_by_role("button", name="Sign in").click()
    await expect(page.get_by_role("alert")).to_have_text("Enter your email address.")


async def test_next_keeps_the_query_of_the_page_asked_for(demo, page):
    user = demo.create_user()
    await page.goto(demo.base_url + "/offers/keystone-personal-loan?ref=email&utm=x")
    await expect(page).to_have_url(
        demo.base_url + "/login?next=/offers/keystone-personal-loan?ref%3Demail%26utm%3Dx"
    )
    await fill_login(page, user["email"], user["password"])
    await expect(page).to_have_url(demo.base_url + "/offers/keystone-personal-loan?ref=email&utm=x")


async def test_next_only_accepts_same_origin_paths(demo, page):
    user = demo.create_user()
    await page.goto(demo.base_url + "/login?next=//evil.example/steal")
    await fill_login(page, user["email"], user["password"])
    await expect(page).to_have_url(demo.base_url + "/dashboard")


async def test_totp_accepts_previous_window_on_server_clock(api, demo):
    demo.configure()
    user = demo.create_user(requires_2fa=True)
    await api.post("/_data/clock", json={"timestamp": FROZEN_MS})
    totp = pyotp.TOTP(user["otpSecret"])
    creds = {"email": user["email"], "password": user["password"]}
    for offset_s, expected in ((0, 200), (-30, 200), (-90, 401)):
        async with api.post("/api/login", json=creds) as response:
            body = await response.json()
        assert body["status"] == "2fa_required"
        code = totp.at(FROZEN_MS // 1000 + offset_s)
        async with api.post("/api/verify-2fa", json={"challengeId": body["challengeId"], "code": code}) as response:
            assert response.status == expected, offset_s


async def test_api_login_refresh_and_logout(api, demo):
    user = demo.create_user(plan="premium")
    async with api.post("/api/login", json={"email": user["email"], "password": "bad"}) as response:
        assert response.status == 401
        assert await response.json() == {"error": "Invalid email or password."}
    async with api.post("/api/login", json={"email": user["email"], "password": user["password"]}) as response:
        body = await response.json()
    session = body["session"]
    assert body["status"] == "ok" and session["user"]["plan"] == "premium"
    assert set(session) == {"token", "refreshToken", "expiresAt", "user"}
    async with api.get("/api/me") as response:
        assert response.status == 200, "the login response set the session cookie"
    async with api.post("/api/refresh", json={"refreshToken": session["refreshToken"]}) as response:
        refreshed = (await response.json())["session"]
    assert refreshed["token"] != session["token"]
    async with api.post("/api/refresh", json={"refreshToken": session["refreshToken"]}) as response:
        assert response.status == 401, "a refresh token works once"
    async with api.post("/api/logout") as response:
        assert (await response.json())["ok"] is True
    async with api.get("/api/me") as response:
        assert response.status == 401
        assert (await response.json())["error"] == "Sign in to continue."


async def test_session_expires_on_the_server_clock(api, demo, page, sign_in):
    await api.post("/_data/clock", json={"timestamp": FROZEN_MS})
    user = await sign_in()
    await page.goto(demo.base_url + "/credit-report")
    await expect(page.get_by_role("heading", level=1)).to_have_text("Credit Report")
    await api.post("/_data/clock", json={"advanceMs": 900_000})
    await page.goto(demo.base_url + "/credit-report")
    await expect(page).to_have_url(demo.base_url + "/login?expired=1&next=/credit-report")
    await expect(page.get_by_role("alert").filter(has_text="expired")).to_have_text(
        "Your session has expired. Please sign in again."
    )
    async with api.get("/api/me", headers={"Authorization": f"Bearer {user['token']}"}) as response:
        assert response.status == 401
        assert (await response.json())["error"] == "Your session has expired. Please sign in again."
    await fill_login(page, user["email"], user["password"])
    await expect(page).to_have_url(demo.base_url + "/credit-report")


async def test_sign_out_button(demo, page, sign_in):
    await sign_in()
    await page.goto(demo.base_url + "/dashboard")
    await page.get_by_test_id("logout-button").click()
    await expect(page).to_have_url(demo.base_url + "/login")
    await page.goto(demo.base_url + "/dashboard")
    await expect(page).to_have_url(demo.base_url + "/login?next=/dashboard")
    await expect(page.get_by_test_id("session-expired")).to_have_count(0)


async def test_viewer_gets_403_and_no_admin_link(demo, page, sign_in):
    await sign_in(role="viewer")
    await page.goto(demo.base_url + "/dashboard")
    await expect(page.get_by_role("navigation", name="Main").get_by_role("link", name="Admin")).to_have_count(0)
    response = await page.goto(demo.base_url + "/admin")
    assert response.status == 403
    await expect(page.get_by_role("heading", level=1)).to_have_text("Access Denied")


async def test_admin_sees_user_management(demo, page, sign_in):
    other = demo.create_user(email="viewer.one@example.com")
    admin = await sign_in(role="admin")
    await page.goto(demo.base_url + "/dashboard")
    await page.get_by_role("navigation", name="Main").get_by_role("link", name="Admin").click()
    await expect(page).to_have_url(demo.base_url + "/admin")
    table = page.get_by_role("table", name="Demo users")
    await expect(table).to_contain_text(other["email"])
    await expect(table).to_contain_text(admin["email"])


async def test_protected_api_answers_401_json(api):
    for path in ("/api/alerts", "/api/disputes", "/api/me"):
        async with api.get(path) as response:
            assert response.status == 401, path
            assert (await response.json())["error"] == "Sign in to continue."


async def test_login_form_works_without_scripts(demo, browser):
    user = demo.create_user(requires_2fa=True)
    context = await browser.new_context(java_script_enabled=False)
    try:
        page = await context.new_page()
        await page.goto(demo.base_url + "/login?next=/offers")
        await fill_login(page, user["email"], "wrong")
        await expect(page.get_by_role("alert")).to_have_text("Invalid email or password.")
        await expect(page.get_by_label("Email")).to_have_value(user["email"])
        await page.get_by_label("Password").fill(user["password"])
        await page.get_by_role("button", name="Sign in").click()
        await page.get_by_label("Authentication code").fill("000000")
        await page.get_by_role("button", name="Verify").click()
        await expect(page.get_by_role("alert")).to_have_text(
            "That code is not valid. Check your authenticator app and try again."
        )
        await page.get_by_label("Authentication code").fill(pyotp.TOTP(user["otpSecret"]).now())
        await page.get_by_role("button", name="Verify").click()
        await expect(page).to_have_url(demo.base_url + "/offers")
        assert "password" not in page.url
    finally:
        await context.close()
