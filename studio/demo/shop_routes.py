"""The shop side of the demo: the hydrating products grid, the per-browser cart, and the profile page's upload."""

from __future__ import annotations

import asyncio
import secrets

from aiohttp import BodyPartReader, hdrs, web

from studio.demo.auth import require_api_user, visitor
from studio.demo.catalog import PRODUCTS, PRODUCTS_BY_ID
from studio.demo.http_support import CART_COOKIE, ApiError, read_json, require_str, state_of
from studio.demo.state import product_order
from studio.demo.templating import render

routes = web.RouteTableDef()

MAX_UPLOAD_BYTES = 2 * 1024 * 1024
IMAGE_TYPES = {"image/png", "image/jpeg", "image/gif", "image/webp"}
DRAIN_LIMIT_BYTES = 64 * 1024 * 1024


def query_int(request: web.Request, key: str, low: int, high: int) -> int | None:
    """An integer query override such as ?seed=3, or None when absent or not a number in range."""
    raw = request.query.get(key, "")
    try:
        value = int(raw)
    except ValueError:
        return None
    return value if low <= value <= high else None


@routes.get("/products")
async def products_page(request: web.Request) -> web.Response:
    placeholders = sorted(PRODUCTS, key=lambda p: p.name.casefold())
    # The page script forwards ?seed= and ?delay= to /api/products, so one page load can pin them.
    return render(request, "products.html", title="Products", placeholders=placeholders)


@routes.get("/api/products")
async def api_products(request: web.Request) -> web.Response:
    """The product list after a seeded hydration delay, in a seeded order, like a slow backend would send it."""
    state = state_of(request)
    seed = query_int(request, "seed", -(2**31), 2**31 - 1)
    seed = state.config.seed if seed is None else seed
    delay = query_int(request, "delay", 0, 60_000)
    if delay is None:
        delay = state.next_hydration_delay_ms(seed)
    shuffle = state.config.shuffle_products
    await asyncio.sleep(delay / 1000)
    cart = state.cart(request.cookies.get(CART_COOKIE))
    products = [
        {**PRODUCTS_BY_ID[pid].as_json(), "inCart": cart.get(pid, 0)} for pid in product_order(seed, shuffle)
    ]
    return web.json_response({"products": products, "seed": seed, "delayMs": delay})


@routes.get("/api/cart")
async def api_cart(request: web.Request) -> web.Response:
    return web.json_response({"cart": state_of(request).cart_json(request.cookies.get(CART_COOKIE))})


@routes.post("/api/cart/add")
async def api_cart_add(request: web.Request) -> web.Response:
    state = state_of(request)
    body = await read_json(request, allow_empty=False)
    product_id = require_str(body, "productId", "Send the 'productId' of the product to add.")
    product = PRODUCTS_BY_ID.get(product_id)
    if product is None:
        raise ApiError(404, f"No product with id {product_id!r}.")
    await asyncio.sleep(state.next_cart_latency_ms() / 1000)
    cart_id = request.cookies.get(CART_COOKIE) or secrets.token_hex(8)
    items = state.add_to_cart(cart_id, product_id)
    response = web.json_response({
        "ok": True,
        "cart": state.cart_json(cart_id),
        "product": {**product.as_json(), "inCart": items[product_id]},
    })
    if request.cookies.get(CART_COOKIE) != cart_id:
        response.set_cookie(CART_COOKIE, cart_id, httponly=True, samesite="Lax", path="/")
    return response


@routes.get("/cart")
async def cart_page(request: web.Request) -> web.Response:
    cart = state_of(request).cart_json(request.cookies.get(CART_COOKIE))
    return render(request, "cart.html", title="Your cart", cart=cart)


@routes.get("/profile")
async def profile_page(request: web.Request) -> web.Response:
    user = visitor(request).user
    return render(request, "profile.html", title="Profile",
                  has_avatar=bool(user and user.avatar), display_name=user.display_name if user else "")


@routes.post("/api/profile")
async def api_save_profile(request: web.Request) -> web.Response:
    user = require_api_user(request, "Sign in to save your profile.")
    body = await read_json(request, allow_empty=False)
    name = require_str(body, "displayName", "Enter a display name.")
    if len(name) > 60:
        raise ApiError(400, "Display names can be at most 60 characters.")
    user.display_name = name
    return web.json_response({"ok": True, "displayName": name})


async def drain(request: web.Request) -> None:
    """Read the rest of an upload we are refusing, so the browser gets our answer instead of a reset connection."""
    remaining = DRAIN_LIMIT_BYTES
    while remaining > 0 and (chunk := await request.content.read(65536)):
        remaining -= len(chunk)


async def _refuse(request: web.Request, status: int, message: str) -> ApiError:
    await drain(request)
    return ApiError(status, message)


@routes.post("/api/upload")
async def api_upload(request: web.Request) -> web.Response:
    if visitor(request).user is None:
        await drain(request)
    user = require_api_user(request, "Sign in to upload files.")
    if not request.content_type.startswith("multipart/"):
        raise await _refuse(request, 400, "Send the file as multipart/form-data in a field named 'file'.")
    if (request.content_length or 0) > MAX_UPLOAD_BYTES + 64 * 1024:
        raise await _refuse(request, 413, "That file is larger than 2 MB. Choose a smaller image.")
    reader = await request.multipart()
    async for part in reader:
        if not isinstance(part, BodyPartReader) or part.name not in ("file", "avatar") or not part.filename:
            # aiohttp annotates MultipartReader.__anext__ as returning None too, but it stops iterating instead.
            await part.release()  # type: ignore[union-attr]
            continue
        content_type = part.headers.get(hdrs.CONTENT_TYPE, "application/octet-stream").split(";")[0].strip().lower()
        if content_type not in IMAGE_TYPES:
            raise await _refuse(request, 415, "Only PNG, JPEG, GIF or WebP images can be uploaded.")
        data = bytearray()
        while chunk := await part.read_chunk(65536):
            data += chunk
            if len(data) > MAX_UPLOAD_BYTES:
                raise await _refuse(request, 413, "That file is larger than 2 MB. Choose a smaller image.")
        user.avatar = (part.filename, content_type, bytes(data))
        await drain(request)
        return web.json_response(
            {"ok": True, "filename": part.filename, "size": len(data), "contentType": content_type}
        )
    raise ApiError(400, "Choose a file to upload in the field named 'file'.")


@routes.get("/api/avatar")
async def api_avatar(request: web.Request) -> web.Response:
    user = require_api_user(request)
    if user.avatar is None:
        raise ApiError(404, "You have not uploaded a profile photo yet.")
    _, content_type, data = user.avatar
    return web.Response(body=data, content_type=content_type, headers={"Cache-Control": "no-store"})
