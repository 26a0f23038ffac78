#!/usr/bin/env python
"""Django's command-line utility for Tirage (settings: ``tournaments.settings``)."""

import os
import sys


def main() -> None:
    """Run a management command with the project's settings unless told otherwise."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")
    try:
        from django.core.management import execute_from_command_line
    except ImportError as exc:
        raise ImportError(
            "Couldn't import Django. Run `make run` or `make test` to create .venv, "
            "or activate it with `. .venv/bin/activate`."
        ) from exc
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
