"""``nginx -t`` with Debian's nginx on the shipped configuration, installed as
docs/deploy.md says (a self-signed certificate standing in for certbot's)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.deploy.conftest import require
from tests.production import nginx
from tests.production.stack import free_port


def test_debian_nginx_accepts_the_site(tmp_path: Path) -> None:
    require(nginx.missing())
    rendered = nginx.render(tmp_path / "nginx", web_port=8000, static_dir=tmp_path / "static")
    result = rendered.test()
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr


def test_debian_nginx_accepts_the_compose_site(tmp_path: Path) -> None:
    """deploy/nginx-compose.conf with the same snippets (the container's `web` host name
    is the one thing a machine without compose cannot resolve: a local port instead)."""
    require(nginx.missing())
    rendered = nginx.render(tmp_path / "nginx", web_port=8000, static_dir=tmp_path / "static")
    etc = rendered.prefix / "etc"
    (etc / "sites-enabled" / "tirage").unlink()
    compose = (nginx.DEPLOY / "nginx-compose.conf").read_text()
    assert "server web:8000;" in compose and "listen 80;" in compose
    compose = compose.replace("server web:8000;", "server 127.0.0.1:8000;")
    compose = compose.replace("listen 80;", f"listen 127.0.0.1:{free_port()};")
    compose = compose.replace("/etc/nginx/", f"{etc}/")
    (etc / "conf.d" / "default.conf").write_text(compose)
    result = rendered.test()
    assert result.returncode == 0, result.stderr


def test_no_directive_newer_than_debian_nginx() -> None:
    """Debian 12 ships nginx 1.22: `http2 on;` (1.25.1) is unknown there."""
    text = "\n".join(p.read_text() for p in nginx.DEPLOY.glob("nginx*.conf"))
    assert not re.search(r"^\s*http2\s+on\s*;", text, re.MULTILINE)
    assert "listen 443 ssl http2;" in (nginx.DEPLOY / "nginx.conf").read_text()
