"""The stub server behind swagger-ui's Try it out: a pet shelter that answers the operations of hosts/swagger/
openapi.json under /api/, with its state kept per site."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

from tests.corpus.static_server import StubApi


def pet_shelter() -> StubApi:
    pets = [{"id": 1, "name": "Rex", "tag": "dog"}, {"id": 2, "name": "Tom", "tag": "cat"},
            {"id": 3, "name": "Polly", "tag": "parrot"}]

    def answer(method: str, path: str, body: bytes) -> tuple[int, object]:
        parts = urlsplit(path)
        segments = [segment for segment in parts.path.split("/") if segment][1:]  # after "api"
        if segments == ["pets"] and method == "GET":
            limit = parse_qs(parts.query).get("limit", [""])[0]
            return 200, pets[:int(limit)] if limit.isdigit() else pets
        if segments == ["pets"] and method == "POST":
            try:
                given = json.loads(body or b"{}")
            except ValueError:
                return 400, {"message": "The body is not JSON."}
            if not isinstance(given, dict) or not given.get("name"):
                return 400, {"message": "A pet needs a name."}
            pet = {"id": max(p["id"] for p in pets) + 1, "name": str(given["name"]), "tag": str(given.get("tag", ""))}
            pets.append(pet)
            return 201, pet
        if len(segments) == 2 and segments[0] == "pets" and method == "GET":
            found = [pet for pet in pets if str(pet["id"]) == segments[1]]
            return (200, found[0]) if found else (404, {"message": f"No pet has the id {segments[1]!r}."})
        return 404, {"message": f"No operation {method} {parts.path}."}

    return answer
