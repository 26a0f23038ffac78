"""The OpenAPI schema says every status an endpoint can answer (schemathesis checks it).

Views document what their own logic refuses (``common.errors(...)``); this
post-processing hook adds what the framework answers on any endpoint of a kind:

* 401 everywhere: a wrong ``Authorization`` header (bad token) is refused even on public
  reads, since the authentication classes run first;
* 400 and 415 on every operation with a body: malformed JSON, a media type not accepted;
* 404 on every operation with a path parameter: the object does not exist;
* 429 on the throttled ones: the player's endpoints (per-token limit) and the token
  exchange (per-address limit and the login throttling, ``tournaments.login_guard``).

It also says two things the serializers cannot: the public reads take no credentials
(``{}`` in their ``security``), and no text field of a request accepts the NUL character
(DRF refuses it in every ``CharField``).
"""

from __future__ import annotations

from typing import Any

ERROR_REF = {"$ref": "#/components/schemas/Error"}
THROTTLED_PREFIXES = ("/api/player/", "/api/auth/token/")
#: Reads anyone may make (rankings only when the tournament makes them public).
PUBLIC = {
    ("get", "/api/tournaments/"),
    ("get", "/api/tournaments/{slug}/"),
    ("get", "/api/tournaments/{slug}/rankings/"),
    ("get", "/api/tournaments/{slug}/games/{number}/rankings/"),
}
NO_NUL = "^[^\\u0000]*$"
DESCRIPTIONS = {
    "400": "Malformed request",
    "401": "Missing or wrong credentials",
    "404": "Not found",
    "415": "Unsupported media type",
    "429": "Too many requests (see Retry-After)",
}


def _error(status: str) -> dict[str, Any]:
    body: dict[str, Any] = {
        "description": DESCRIPTIONS[status],
        "content": {"application/json": {"schema": ERROR_REF}},
    }
    if status == "429":
        body["headers"] = {
            "Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."}
        }
    return body


def add_framework_responses(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular ``POSTPROCESSING_HOOKS`` entry."""
    schemas = result.get("components", {}).get("schemas", {})
    if "Error" not in schemas:
        return result
    for name, schema in schemas.items():
        if name.endswith("Request"):
            for prop in schema.get("properties", {}).values():
                if prop.get("type") == "string" and not {"enum", "pattern", "format"} & set(prop):
                    prop["pattern"] = NO_NUL
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            wanted = {"401"}
            if "requestBody" in operation:
                wanted |= {"400", "415"}
            if "{" in path:
                wanted.add("404")
            if path.startswith(THROTTLED_PREFIXES):
                wanted.add("429")
            if (method, path) in PUBLIC and {} not in operation.get("security", [{}]):
                operation["security"] = [*operation.get("security", []), {}]
            responses = operation.setdefault("responses", {})
            for status in sorted(wanted - responses.keys()):
                responses[status] = _error(status)
    return result
