"""Debian's nginx with Tirage's shipped configuration, installed as docs/deploy.md says,
but into a private copy of /etc/nginx (a temporary prefix) on free ports.

``render`` copies Debian's /etc/nginx, installs deploy/nginx.conf as sites-available/tirage
(symlinked into sites-enabled, Debian's default site left out) and the three snippets, then
rewrites only what a real install rewrites by hand or what must differ on a test machine:
the host name, the certificate paths (a self-signed certificate made with openssl), the
gunicorn address, the listening ports, the static directory and the log/pid paths. Every
rewrite must hit, so a shipped file that drifts fails loudly. ``Nginx`` runs it in the
foreground (``daemon off``) in front of a running stack.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tests.production.stack import ROOT, free_port, wait_for

DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
HOST = "tirage.example.org"


def missing() -> str:
    if not Path(NGINX).exists():
        return "nginx is not installed (apt-get install nginx)"
    if not Path("/etc/nginx/nginx.conf").exists():
        return "Debian's /etc/nginx is missing"
    if not shutil.which("openssl"):
        return "openssl is not installed"
    return ""


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A certificate for tirage.example.org, as certbot would leave it."""
    directory.mkdir(parents=True, exist_ok=True)
    cert, key = directory / "fullchain.pem", directory / "privkey.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", f"/CN={HOST}", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return cert, key


def _replace(text: str, old: str, new: str, *, name: str) -> str:
    assert old in text, f"{name}: expected {old!r} in the shipped file"
    return text.replace(old, new)


@dataclass
class Rendered:
    prefix: Path
    http_port: int
    https_port: int
    config: Path

    def test(self) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [NGINX, "-t", "-p", str(self.prefix), "-c", str(self.config)],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip


# The player zones' refill rates, lowered for the stack tests (``render(slow=True)``): the
# keys and the bursts stay as shipped, but a loaded test machine serving fewer than 10
# (per token) or 50 (per address) requests a second would otherwise never empty a bucket.
SLOW_RATES = {"rate=10r/s;": "rate=12r/m;", "rate=50r/s;": "rate=60r/m;"}


def render(prefix: Path, *, web_port: int, static_dir: Path, slow: bool = False) -> Rendered:
    """Install the shipped configuration into ``prefix`` (a copy of Debian's /etc/nginx)."""
    etc = prefix / "etc"
    shutil.copytree("/etc/nginx", etc, symlinks=True)
    for enabled in (etc / "sites-enabled").iterdir():
        enabled.unlink()  # Debian's default site: docs/deploy.md removes it too
    (prefix / "log").mkdir()
    cert, key = self_signed(prefix / "letsencrypt")
    http_port, https_port = free_port(), free_port()

    def fix_paths(text: str) -> str:
        return text.replace("/etc/nginx/", f"{etc}/")

    main = (etc / "nginx.conf").read_text()
    main = _replace(main, "pid /run/nginx.pid;", f"pid {prefix}/nginx.pid;", name="nginx.conf")
    main = main.replace("/var/log/nginx/", f"{prefix}/log/")
    (etc / "nginx.conf").write_text(fix_paths(main))

    site = (DEPLOY / "nginx.conf").read_text()
    for old, new in [
        (f"/etc/letsencrypt/live/{HOST}/fullchain.pem", str(cert)),
        (f"/etc/letsencrypt/live/{HOST}/privkey.pem", str(key)),
        ("server 127.0.0.1:8000", f"server 127.0.0.1:{web_port}"),
        ("listen 80;", f"listen 127.0.0.1:{http_port};"),
        ("listen [::]:80;", ""),
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;"),
        ("listen [::]:443 ssl http2;", ""),
        ("/var/log/nginx/", f"{prefix}/log/"),
    ]:
        site = _replace(site, old, new, name="deploy/nginx.conf")
    (etc / "sites-available" / "tirage").write_text(fix_paths(site))
    (etc / "sites-enabled" / "tirage").symlink_to("../sites-available/tirage")

    snippets = etc / "snippets"
    locations = _replace((DEPLOY / "nginx-locations.conf").read_text(),
                         "/var/lib/tirage/static/", f"{static_dir}/",
                         name="deploy/nginx-locations.conf")  # fmt: skip
    (snippets / "tirage-locations.conf").write_text(fix_paths(locations))
    http = (DEPLOY / "nginx-http.conf").read_text()
    for old, new in SLOW_RATES.items() if slow else ():
        http = _replace(http, old, new, name="deploy/nginx-http.conf")
    (snippets / "tirage-http.conf").write_text(http)
    shutil.copy(DEPLOY / "nginx-proxy.conf", snippets / "tirage-proxy.conf")
    return Rendered(prefix, http_port, https_port, etc / "nginx.conf")


class Nginx:
    """nginx in the foreground on a rendered prefix; ``stop`` ends it (and only it)."""

    def __init__(self, rendered: Rendered) -> None:
        self.rendered = rendered
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        r = self.rendered
        with open(r.prefix / "log" / "stderr", "wb") as stderr:
            self.process = subprocess.Popen(
                [NGINX, "-p", str(r.prefix), "-c", str(r.config), "-g", "daemon off;"],
                stdout=subprocess.DEVNULL, stderr=stderr,
            )  # fmt: skip
        wait_for(lambda: self.process.poll() is None and self.listening(), 30, "nginx listening")

    def listening(self) -> bool:
        for port in (self.rendered.http_port, self.rendered.https_port):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
            except OSError:
                return False
        return True

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None

    def access_log(self) -> str:
        path = self.rendered.prefix / "log" / "tirage.access.log"
        return path.read_text(errors="replace") if path.exists() else ""
