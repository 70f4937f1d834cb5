"""The public profile page of seed 003: the page loads for anyone, but saving and uploading need a sign-in."""

from __future__ import annotations

import base64

import aiohttp
from playwright.async_api import expect

# A 1x1 transparent PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
)


def photo(name: str = "avatar.png", mime: str = "image/png", data: bytes = PNG) -> dict:
    return {"name": name, "mimeType": mime, "buffer": data}


async def upload_via_api(api, token: str | None, data: bytes, content_type: str, name: str) -> tuple[int, dict]:
    form = aiohttp.FormData()
    form.add_field("file", data, filename=name, content_type=content_type)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with api.post("/api/upload", data=form, headers=headers) as response:
        return response.status, await response.json()


async def test_upload_while_signed_out_says_to_sign_in(demo, page):
    response = await page.goto(demo.base_url + "/profile")
    assert response.status == 200
    await expect(page.get_by_role("heading", level=1)).to_have_text("Profile")
    await page.get_by_label("Profile photo").set_input_files(photo())
    async with page.expect_response("**/api/upload") as info:
        await page.get_by_role("button", name="Upload").click()
    assert (await info.value).status == 401
    await expect(page.get_by_role("alert").filter(has_text="upload")).to_have_text("Sign in to upload files.")


async def test_upload_while_signed_in_succeeds(demo, page, sign_in):
    await sign_in()
    await page.goto(demo.base_url + "/profile")
    await page.get_by_test_id("avatar-input").set_input_files(photo())
    async with page.expect_response("**/api/upload") as info:
        await page.get_by_role("button", name="Upload").click()
    response = await info.value
    assert response.status == 200
    assert await response.json() == {"ok": True, "filename": "avatar.png", "size": len(PNG), "contentType": "image/png"}
    await expect(page.get_by_test_id("upload-status")).to_have_text(f"Uploaded avatar.png ({len(PNG) / 1024:.1f} KB).")
    await expect(page.get_by_role("img", name="Your profile photo")).to_be_visible()


async def test_upload_rejects_big_and_non_image_files(api, demo, page, sign_in):
    user = await sign_in()
    status, body = await upload_via_api(api, user["token"], b"\x89PNG" + b"0" * (2 * 1024 * 1024), "image/png", "big.png")
    assert (status, body) == (413, {"error": "That file is larger than 2 MB. Choose a smaller image."})
    status, body = await upload_via_api(api, user["token"], b"hello", "text/plain", "notes.txt")
    assert (status, body) == (415, {"error": "Only PNG, JPEG, GIF or WebP images can be uploaded."})
    status, body = await upload_via_api(api, None, PNG, "image/png", "a.png")
    assert (status, body) == (401, {"error": "Sign in to upload files."})

    await page.goto(demo.base_url + "/profile")
    await page.get_by_label("Profile photo").set_input_files(photo("notes.txt", "text/plain", b"hello"))
    await page.get_by_role("button", name="Upload").click()
    await expect(page.get_by_test_id("upload-error")).to_have_text("Only PNG, JPEG, GIF or WebP images can be uploaded.")
    await page.get_by_label("Profile photo").set_input_files(photo("huge.png", "image/png", b"0" * (3 * 1024 * 1024)))
    await page.get_by_role("button", name="Upload").click()
    await expect(page.get_by_test_id("upload-error")).to_have_text("That file is larger than 2 MB. Choose a smaller image.")


async def test_saving_the_display_name_needs_a_sign_in(demo, page, sign_in):
    await page.goto(demo.base_url + "/profile")
    await page.get_by_label("Display name").fill("Robin")
    await page.get_by_role("button", name="Save changes").click()
    await expect(page.get_by_test_id("profile-error")).to_have_text("Sign in to save your profile.")
    await sign_in()
    await page.reload()
    await page.get_by_label("Display name").fill("Robin")
    await page.get_by_role("button", name="Save changes").click()
    await expect(page.get_by_test_id("profile-status")).to_have_text("Your profile was saved.")
    await page.reload()
    await expect(page.get_by_label("Display name")).to_have_value("Robin")
