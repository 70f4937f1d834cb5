"""The sample project material in projects/ tells the truth about the demo app it describes."""

from __future__ import annotations

import json
from pathlib import Path

import aiohttp
import pyotp
import yaml

SAMPLE = Path(__file__).resolve().parents[2] / "projects" / "demo-fintech" / "project.yaml"


def _call(line: str) -> tuple[str, str, dict]:
    method, path, *body = line.split(" ", 2)
    return method, path, json.loads(body[0]) if body else {}


async def test_the_sample_project_names_real_pages_and_data_endpoints(demo):
    sample = yaml.safe_load(SAMPLE.read_text(encoding="utf-8"))
    assert sample["base_url"] in sample["allowed_origins"]
    assert all(key.endswith("_env") for key in sample["login"] if key != "path")  # names of variables, no secrets
    async with aiohttp.ClientSession() as http:
        for name in ("reset", "create_user", "set_flag", "freeze_clock"):
            method, path, body = _call(sample["test_data"][name])
            async with http.request(method, demo.base_url + path, json=body) as reply:
                assert reply.status in (200, 201), (name, await reply.text())
                if name == "create_user":
                    user = await reply.json()
        login = {"email": user["email"], "password": user["password"]}
        if user.get("otpSecret"):  # the sample's user has two-factor sign-in
            frozen_ms = _call(sample["test_data"]["freeze_clock"])[2]["timestamp"]  # codes follow the app's clock
            login["otp"] = pyotp.TOTP(user["otpSecret"]).at(frozen_ms // 1000)
        async with http.post(demo.base_url + "/_data/login", json=login) as reply:
            assert reply.status == 200
        async with http.get(demo.base_url + sample["login"]["path"]) as reply:
            assert reply.status == 200 and "Sign in" in await reply.text()
        admin = demo.create_user(role="admin")
        async with http.post(demo.base_url + "/_data/login", json={"email": admin["email"], "password": admin["password"]}) as reply:
            token = (await reply.json())["token"]
        for page in sample["pages"]:
            async with http.get(demo.base_url + page, allow_redirects=False,
                                headers={"Cookie": f"demo_session={token}"}) as reply:
                assert reply.status == 200, (page, reply.status)
