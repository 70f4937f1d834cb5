"""The credit-monitoring side of the demo: dashboard, credit report, disputes, alerts, offers, help, privacy, admin."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from aiohttp import web

from studio.demo.auth import require_api_user, require_page_user, visitor
from studio.demo.catalog import (
    CURRENT_SCORE,
    DISPUTE_REASON_LABELS,
    DISPUTE_REASONS,
    HELP_ARTICLES,
    INQUIRIES,
    OFFERS,
    OFFERS_BY_ID,
    SCORE_HISTORY,
    TRADELINES,
    score_band,
)
from studio.demo.http_support import ApiError, read_json, state_of
from studio.demo.templating import not_found_page, render

routes = web.RouteTableDef()
TRADELINES_BY_ID = {t.id: t for t in TRADELINES}


@routes.get("/")
async def home(request: web.Request) -> web.Response:
    raise web.HTTPFound("/dashboard")


@routes.get("/dashboard")
async def dashboard(request: web.Request) -> web.Response:
    user = require_page_user(request)
    state = state_of(request)
    alerts = state.alerts_for(user.user_id)
    revolving = [t for t in TRADELINES if t.kind == "Revolving" and t.status != "Closed"]
    utilization = round(100 * sum(t.balance_cents for t in revolving) / sum(t.limit_cents for t in revolving))
    return render(
        request, "dashboard.html", title="Dashboard",
        score=CURRENT_SCORE, band=score_band(CURRENT_SCORE), change=SCORE_HISTORY[-1] - SCORE_HISTORY[-2],
        unread=sum(1 for a in alerts if not a.read), recent_alerts=alerts[:3],
        utilization=utilization, open_accounts=sum(1 for t in TRADELINES if t.status != "Closed"),
        total_debt=sum(t.balance_cents for t in TRADELINES),
    )


def month_labels(now: datetime, count: int = 12) -> list[str]:
    """Short month names of the last `count` months ending with the current one, oldest first."""
    labels = []
    year, month = now.year, now.month
    for _ in range(count):
        labels.append(datetime(year, month, 1).strftime("%b"))
        year, month = (year - 1, 12) if month == 1 else (year, month - 1)
    return labels[::-1]


def chart_points(scores: tuple[int, ...], width: int = 640, height: int = 220, pad: int = 36) -> list[dict[str, Any]]:
    low, high = math.floor(min(scores) / 10) * 10 - 10, math.ceil(max(scores) / 10) * 10 + 10
    step = (width - 2 * pad) / (len(scores) - 1)
    return [
        {"x": round(pad + i * step, 1), "y": round(height - pad - (s - low) / (high - low) * (height - 2 * pad), 1), "score": s}
        for i, s in enumerate(scores)
    ]


@routes.get("/credit-report")
async def credit_report(request: web.Request) -> web.Response:
    require_page_user(request)
    now = state_of(request).clock.now()
    points = chart_points(SCORE_HISTORY)
    months = month_labels(now)
    return render(
        request, "credit_report.html", title="Credit Report", score=CURRENT_SCORE, band=score_band(CURRENT_SCORE),
        points=[{**p, "month": m} for p, m in zip(points, months, strict=True)],
        polyline=" ".join(f"{p['x']},{p['y']}" for p in points),
        first_score=SCORE_HISTORY[0], tradelines=TRADELINES, inquiries=INQUIRIES,
    )


@routes.get("/disputes")
async def disputes_page(request: web.Request) -> web.Response:
    user = require_page_user(request)
    state = state_of(request)
    return render(
        request, "disputes.html", title="Disputes", tradelines=TRADELINES, reasons=DISPUTE_REASONS,
        phone_required=state.flags_for(user.user_id)["dispute_phone_required"],
        disputes=list(reversed(state.disputes.get(user.user_id, []))), reason_labels=DISPUTE_REASON_LABELS,
        accounts=TRADELINES_BY_ID,
    )


def validate_dispute(body: dict[str, Any], phone_required: bool) -> tuple[dict[str, Any], dict[str, str]]:
    """The dispute's fields and, per field, the sentence explaining what is wrong with it."""
    errors: dict[str, str] = {}
    account = body.get("accountId")
    if account not in TRADELINES_BY_ID:
        errors["accountId"] = "Choose the account you want to dispute."
    reason = body.get("reason")
    if reason not in DISPUTE_REASON_LABELS:
        errors["reason"] = "Choose a reason for the dispute."
    description = body.get("description")
    if not isinstance(description, str) or len(description.strip()) < 20:
        errors["description"] = "Describe the problem in at least 20 characters."
    amount: Any = body.get("amount")  # any JSON value; a number when valid
    try:
        amount = float(amount)
        if not math.isfinite(amount) or amount <= 0:
            raise ValueError
    except (TypeError, ValueError):
        errors["amount"] = "Enter a disputed amount greater than 0."
    phone = body.get("phone")
    if phone_required and (not isinstance(phone, str) or sum(ch.isdigit() for ch in phone) < 10):
        errors["phone"] = "Enter a phone number with at least 10 digits."
    fields = {
        "account_id": account, "reason": reason, "description": (description or "").strip() if isinstance(description, str) else "",
        "amount": amount, "phone": phone if isinstance(phone, str) and phone.strip() else None,
    }
    return fields, errors


@routes.post("/api/disputes")
async def api_file_dispute(request: web.Request) -> web.Response:
    user = require_api_user(request)
    state = state_of(request)
    body = await read_json(request, allow_empty=False)
    fields, errors = validate_dispute(body, state.flags_for(user.user_id)["dispute_phone_required"])
    if errors:
        raise ApiError(400, "Please fix the highlighted fields.", fields=errors)
    dispute = state.file_dispute(user.user_id, **fields)
    return web.json_response({"ok": True, "dispute": dispute.as_json()}, status=201)


@routes.get("/api/disputes")
async def api_list_disputes(request: web.Request) -> web.Response:
    user = require_api_user(request)
    return web.json_response({"disputes": [d.as_json() for d in state_of(request).disputes.get(user.user_id, [])]})


async def _alert_centre(request: web.Request, served_at: str) -> web.Response:
    """The alert centre lives at /alerts or /notifications depending on the `alerts_route` flag."""
    who = visitor(request)
    mode = state_of(request).flags_for(who.user.user_id if who.user else None)["alerts_route"]
    if served_at == "/alerts" and mode == "redirect":
        target = "/notifications" + (f"?{request.query_string}" if request.query_string else "")
        raise web.HTTPMovedPermanently(target)
    if (served_at == "/alerts") != (mode == "default"):
        return not_found_page(request)
    require_page_user(request)
    heading = "Alerts" if mode == "default" else "Notifications"
    return render(request, "alerts.html", title=heading, heading=heading)


@routes.get("/alerts")
async def alerts_page(request: web.Request) -> web.Response:
    return await _alert_centre(request, "/alerts")


@routes.get("/notifications")
async def notifications_page(request: web.Request) -> web.Response:
    return await _alert_centre(request, "/notifications")


def _alerts_json(request: web.Request, user_id: str) -> dict[str, Any]:
    state = state_of(request)
    alerts = state.alerts_for(user_id)
    return {
        "alerts": [a.as_json() for a in alerts],
        "unreadCount": sum(1 for a in alerts if not a.read),
        "now": state.clock.now_ms(),
    }


@routes.get("/api/alerts")
async def api_alerts(request: web.Request) -> web.Response:
    user = require_api_user(request)
    return web.json_response(_alerts_json(request, user.user_id))


@routes.post("/api/alerts/read-all")
async def api_alerts_read_all(request: web.Request) -> web.Response:
    user = require_api_user(request)
    for alert in state_of(request).alerts_for(user.user_id):
        alert.read = True
    return web.json_response({"ok": True, **_alerts_json(request, user.user_id)})


@routes.post(r"/api/alerts/{alert_id}/{action:read|dismiss}")
async def api_alert_action(request: web.Request) -> web.Response:
    user = require_api_user(request)
    alert_id = request.match_info["alert_id"]
    alert = next((a for a in state_of(request).alerts_for(user.user_id) if a.id == alert_id), None)
    if alert is None:
        raise ApiError(404, f"No alert with id {alert_id!r}; it may have been dismissed already.")
    if request.match_info["action"] == "read":
        alert.read = True
    else:
        alert.dismissed = True
    return web.json_response({"ok": True, **_alerts_json(request, user.user_id)})


@routes.get("/offers")
async def offers_page(request: web.Request) -> web.Response:
    user = require_page_user(request)
    return render(request, "offers.html", title="Offers", offers=OFFERS, plan=user.plan)


@routes.get("/offers/{offer_id}")
async def offer_detail(request: web.Request) -> web.Response:
    user = require_page_user(request)
    offer = OFFERS_BY_ID.get(request.match_info["offer_id"])
    if offer is None:
        return not_found_page(request)
    applied = offer.id in state_of(request).applications.get(user.user_id, set())
    return render(request, "offer_detail.html", title=offer.name, offer=offer, applied=applied)


@routes.post("/offers/{offer_id}/apply")
async def offer_apply(request: web.Request) -> web.Response:
    offer = OFFERS_BY_ID.get(request.match_info["offer_id"])
    if offer is None:
        return not_found_page(request)
    user = visitor(request).user
    if user is None:  # after signing in, land on the offer rather than on this POST-only address
        raise web.HTTPFound(f"/login?next=/offers/{offer.id}")
    state_of(request).applications.setdefault(user.user_id, set()).add(offer.id)
    return web.Response(status=303, headers={"Location": f"/offers/{offer.id}"})


@routes.get("/help")
async def help_page(request: web.Request) -> web.Response:
    # Public, like most help centres: the sign-in page links here for people who cannot sign in.
    return render(request, "help.html", title="Help", articles=HELP_ARTICLES)


@routes.get("/privacy")
async def privacy_page(request: web.Request) -> web.Response:
    return render(request, "privacy.html", title="Privacy Policy")


@routes.get("/admin")
async def admin_page(request: web.Request) -> web.Response:
    require_page_user(request)
    if not visitor(request).is_admin:
        return render(request, "error.html", status=403, title="Access Denied", heading="Access Denied",
                      message="You don't have permission to view this page. Ask an administrator for access.")
    users = sorted(state_of(request).users.values(), key=lambda u: (u.created_ms, u.email))
    return render(request, "admin.html", title="Admin", users=users)
