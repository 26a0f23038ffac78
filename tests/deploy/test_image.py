"""The image, built without a container engine: this machine cannot pull the base image
(no container registry reachable; Debian's podman installs but has nothing to start from),
so the test replays deploy/Dockerfile's instructions one by one on this Debian machine,
the image's Python 3.11 in a fresh virtualenv standing in for python:3.11-slim-bookworm:

* the build stage's packages must be installed (its ``apt-get install`` line, checked);
* ``WORKDIR``, ``ENV``, ``COPY`` (the build context filtered by Dockerfile.dockerignore)
  and every other ``RUN`` line are executed as written, /opt/venv and /opt/tirage moved
  under a temporary directory;
* the run stage's ``ENV`` and ``CMD`` are then used as the container would: from the
  working directory, ``import engine._core`` (the compiled core found at run time, the
  bug this test was written for), ``manage.py check --deploy`` and gunicorn's
  ``--check-config`` on the ``CMD``.

Slow (a pip install of every dependency, the default lexicon): about a minute.
"""

from __future__ import annotations

import fnmatch
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy.conftest import require
from tests.production.stack import ROOT

DOCKERFILE = ROOT / "deploy" / "Dockerfile"
IGNORE = ROOT / "deploy" / "Dockerfile.dockerignore"


def instructions(text: str) -> list[tuple[str, str]]:
    """(KEYWORD, arguments) of each instruction, continuation lines joined."""
    result, pending = [], ""
    for line in text.splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        whole = (pending + line).strip()
        pending = ""
        keyword, _, args = whole.partition(" ")
        result.append((keyword.upper(), args.strip()))
    return result


def context_files() -> list[str]:
    """The build context: the checkout's files less Dockerfile.dockerignore's patterns."""
    git = ["git", "ls-files", "-co", "--exclude-standard"]
    listed = subprocess.run(git, cwd=ROOT, capture_output=True, text=True, check=True)
    listed = listed.stdout.split("\n")
    patterns = [p.strip() for p in IGNORE.read_text().splitlines() if p.strip()]

    def ignored(path: str) -> bool:
        for pattern in patterns:
            bare = pattern.removeprefix("**/")
            if fnmatch.fnmatch(path, pattern) or path.startswith(pattern.rstrip("/") + "/"):
                return True
            if pattern.startswith("**/") and any(
                fnmatch.fnmatch(part, bare) for part in path.split("/")
            ):
                return True
        return False

    return [p for p in listed if p and not ignored(p) and (ROOT / p).is_file()]


def test_dockerfile_steps_build_a_working_image(tmp_path: Path) -> None:
    steps = instructions(DOCKERFILE.read_text())
    stages = [i for i, (keyword, _) in enumerate(steps) if keyword == "FROM"]
    assert len(stages) == 2, "a build stage and a run stage"
    build, run = steps[stages[0] + 1 : stages[1]], steps[stages[1] + 1 :]
    python = shutil.which("python3.11") or sys._base_executable  # the image's Python
    if not os.path.exists(python):
        require("Python 3.11 is not installed")
    moved = {"/opt/venv": str(tmp_path / "venv"), "/opt/tirage": str(tmp_path / "tirage")}

    def move(text: str) -> str:
        for old, new in moved.items():
            text = text.replace(old, new)
        return text

    env = {"PATH": f"{Path(python).parent}:/usr/bin:/bin", "HOME": str(tmp_path)}
    cwd = tmp_path
    for keyword, args in build:
        if keyword == "RUN" and args.startswith("apt-get"):
            packages = [w for w in args.split("--no-install-recommends", 1)[1].split("&&")[0]
                        .replace("\\", " ").split()]  # fmt: skip
            missing = [
                p
                for p in packages
                if subprocess.run(["dpkg", "-s", p], capture_output=True).returncode
            ]
            require(f"Debian packages missing: {' '.join(missing)}" if missing else "")
        elif keyword == "WORKDIR":
            cwd = Path(move(args))
            cwd.mkdir(parents=True, exist_ok=True)
        elif keyword == "ENV":
            for assignment in shlex.split(args):
                name, _, value = assignment.partition("=")
                if name == "PIP_NO_CACHE_DIR":
                    continue  # the cache only saves downloads between test runs
                env[name] = move(value.replace("$PATH", env["PATH"]))
        elif keyword == "COPY":
            assert args == ". .", f"unexpected COPY {args}"
            for name in context_files():
                (cwd / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / name, cwd / name)
        elif keyword == "RUN":
            command = move(args).replace("python -m venv", f"{python} -m venv", 1)
            result = subprocess.run(["sh", "-c", command], cwd=cwd, env=env,
                                    capture_output=True, text=True, timeout=900)  # fmt: skip
            assert result.returncode == 0, (
                f"RUN {args}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
            )
        else:
            pytest.fail(f"the replay does not know {keyword} (update this test)")

    # The run stage: COPY --from=build keeps the same paths, then ENV, USER, CMD.
    runtime = {"PATH": env["PATH"], "HOME": str(tmp_path)}
    cmd: list[str] = []
    for keyword, args in run:
        if keyword == "ENV":
            for assignment in shlex.split(args):
                name, _, value = assignment.partition("=")
                runtime[name] = move(value.replace("$PATH", env["PATH"]))
        elif keyword == "WORKDIR":
            cwd = Path(move(args))
        elif keyword == "CMD":
            import json

            cmd = json.loads(args)
    assert cmd[:1] == ["gunicorn"]
    runtime.update(SECRET_KEY="Zx8-q" * 12, ALLOWED_HOSTS="tirage.example.org",
                   TIRAGE_VAR_DIR=str(tmp_path / "state"))  # fmt: skip

    def container(*argv: str) -> str:
        result = subprocess.run(list(argv), cwd=cwd, env=runtime, capture_output=True,
                                text=True, timeout=300)  # fmt: skip
        assert result.returncode == 0, f"{argv}\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"
        return result.stdout

    where = container("python", "-c", "import engine, engine._core; print(engine._core.__file__)")
    assert where.strip().startswith(str(cwd / "engine" / "_core")), where
    assert Path(runtime["TIRAGE_LEXICON"]).stat().st_size > 1_000_000
    container("python", "manage.py", "check", "--deploy")
    container(*cmd, "--check-config")
