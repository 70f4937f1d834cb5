"""What an observation says the page logged and requested, from the driver's traffic watch: console messages (a
logged object as Playwright showed it), the browser's own failed-resource line, uncaught errors, responses and
failures with the seed's fields, and the seed's quick error count."""

from __future__ import annotations

import asyncio

import pytest

from studio.pilot.observer import PageLog, new_errors

pytestmark = pytest.mark.browser


async def test_console_errors_and_requests_come_with_the_seeds_fields(page, driver, demo):
    await driver.navigate(demo.base_url + "/help")
    log = PageLog()
    traffic = await driver.watch(log.publish)
    try:
        await driver.evaluate("""async () => {
            console.log('loaded', 3, {step: 2}, [1, , 3]);
            await fetch('/no-such-endpoint');
            await fetch('http://127.0.0.1:9/refused').catch(() => {});
            setTimeout(() => { throw new Error('boom'); }, 0);
        }""")
        await asyncio.sleep(0.3)  # the uncaught error and the browser's own line arrive after the script
        console, network = log.drain()
    finally:
        await traffic.detach()
    assert {"type": "log", "text": "loaded 3 {step: 2} [1, empty, 3]"} in [
        {key: item[key] for key in ("type", "text")} for item in console]
    assert all(isinstance(item["timestamp"], int) for item in console)
    errors = [item["text"] for item in console if item["type"] == "error"]
    assert "Uncaught boom" in errors and any("404" in text for text in errors)
    missing = next(item for item in network if item["url"].endswith("/no-such-endpoint"))
    assert (missing["method"], missing["status"], set(missing)) == ("GET", 404, {"url", "method", "status", "duration"})
    refused = next(item for item in network if "/refused" in item["url"])
    assert refused["status"] == 0 and refused["failure"].startswith("net::")
    assert new_errors(console, network) == {"consoleErrors": len(errors), "networkErrors": 2}
    assert log.drain() == ([], [])  # each observation tells only what is new
