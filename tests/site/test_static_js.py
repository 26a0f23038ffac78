"""The pages' scripts: the polling is written once (``poll.js``) and the pages load it as ES
modules, which the production storage keeps consistent under hashed names (issue 20).

Read from the files themselves: a page that starts its own ``If-None-Match`` loop, a GET
``fetch`` outside ``poll.js``, a module loaded by a classic ``<script>`` tag, or an import
left pointing at an unhashed name (cached immutable for a year by nginx) fails here."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "tournaments" / "static" / "tournaments"
TEMPLATES = ROOT / "templates"
POLLING_PAGES = ("tablet.js", "projector.js", "console.js")
#: The pages that follow a worker's job until it is over: poll.js's ``pollJob``.
JOB_PAGES = ("report_job.js", "batch_job.js", "lexicon_build.js")
IMPORT = re.compile(r"""^(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)";""", re.M | re.S)
SCRIPT_TAG = re.compile(r"""<script\b([^>]*)\bsrc="\{% static '([^']+)' %\}"([^>]*)>""")


def scripts() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(STATIC.glob("*.js"))}


def test_only_poll_js_speaks_etags() -> None:
    for name, text in scripts().items():
        if name == "poll.js":
            assert "If-None-Match" in text and 'headers.get("ETag")' in text
            continue
        assert not re.search(r"[\"'](if-none-match|etag)[\"']", text, re.I), (
            f"{name} polls on its own"
        )


def test_every_other_fetch_is_a_post() -> None:
    """Reads that repeat go through poll.js; the pages' own requests only send (a move, a
    preview, a slip)."""
    for name, text in scripts().items():
        if name == "poll.js":
            continue
        for call in re.finditer(r"\bfetch\(", text):
            assert 'method: "POST"' in text[call.start() : call.start() + 200], (name, call)


def test_the_polling_pages_use_poll_js() -> None:
    texts = scripts()
    for name in POLLING_PAGES:
        assert "./poll.js" in IMPORT.findall(texts[name]), name
        assert re.search(r"\bpoll\(", texts[name]), name
    assert "job_poll.js" not in texts  # the old window.tiragePollJob helper is gone


def test_the_job_pages_use_poll_job() -> None:
    """ "Poll until done or failed, then reload" is written once, ``pollJob`` in poll.js;
    the job pages only say what each answer shows."""
    texts = scripts()
    assert re.search(r"^export function pollJob\(url, onProgress", texts["poll.js"], re.M)
    for name in JOB_PAGES:
        assert re.search(r"^import \{ pollJob \} from \"\./poll\.js\";", texts[name], re.M), name
        assert re.search(r"\bpollJob\(", texts[name]), name
        assert not re.search(r"\bpoll\(", texts[name]), f"{name} polls a job by hand"
        assert "location.reload" not in texts[name] and '"failed"' not in texts[name], name


def test_imports_are_relative_and_resolve() -> None:
    """Relative imports ending in ``;``: the form Django's manifest storage rewrites."""
    texts = scripts()
    for name, text in texts.items():
        for target in IMPORT.findall(text):
            assert target.startswith("./") and target[2:] in texts, (name, target)
        statements = len(re.findall(r"^import\b", text, re.M))
        assert statements == len(IMPORT.findall(text)), f"{name}: an import Django cannot read"


def test_modules_are_loaded_as_modules() -> None:
    """A script with ``import`` in a classic tag would stop at its first line."""
    texts = scripts()
    modules = {name for name, text in texts.items() if IMPORT.search(text)}
    assert {*POLLING_PAGES, *JOB_PAGES, "tablet_draft.js", "tablet_results.js"} <= modules
    loaded = set()
    for template in TEMPLATES.rglob("*.html"):
        for before, src, after in SCRIPT_TAG.findall(template.read_text(encoding="utf-8")):
            name = src.rsplit("/", 1)[-1]
            is_module = 'type="module"' in before + after
            assert is_module == (name in modules), (template.name, name)
            loaded.add(name)
    assert {*POLLING_PAGES, *JOB_PAGES} <= loaded


def test_production_storage_rewrites_the_imports_to_hashed_names(run_cli, tmp_path) -> None:
    """collectstatic with the production storage: the hashed tablet.js imports the hashed
    poll.js, never the unhashed name nginx would serve from a stale year-long cache."""
    env = {"TIRAGE_ENV": "production", "SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "localhost"}
    result = run_cli("manage.py", "collectstatic", "--noinput", "--verbosity", "0", env=env)
    assert result.returncode == 0, result.stderr
    collected = tmp_path / "var" / "static" / "tournaments"
    (tablet,) = [
        p for p in collected.glob("tablet.*.js") if re.fullmatch(r"tablet\.\w{12}\.js", p.name)
    ]
    imported = IMPORT.findall(tablet.read_text(encoding="utf-8"))
    assert any(t.startswith("./poll.") for t in imported), imported
    for target in imported:
        assert re.fullmatch(r"\./\w+\.[0-9a-f]{12}\.js", target), target
        assert (collected / target[2:]).exists(), target
